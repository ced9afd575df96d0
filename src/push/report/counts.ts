import type { PipelineDeps } from '../../deps.js'
import type { PushPlatform } from '../../device.js'
import { PUSH_LIMITS } from '../limits.js'
import {
  type ClickCount,
  NOTIFICATION_PLATFORMS,
  type Push,
  parseNotification,
  type RouteCount,
} from '../send/index.js'
import { isObject } from '../values.js'

// What the sandbox actually delivered, and what devices opened (POST /_sandbox/push/messages/
// {msg_id}/clicks), counted per platform for the report host (jpush-api.md §6), and per the channel
// each delivery took (its recorded route, push/send/delivery/route.ts): the JPush connection, a phone
// maker's channel, APNs, HarmonyOS Push Kit. The lanes are named as the vendor's
// `details.*.sub_*` keys (cav api/jpush/report/v3_get_message_detail.go:128-162).

/** A channel's counters for one push (cav ChannelStats, v3_get_message_detail.go:165-171). */
export interface LaneCounts {
  /** Devices the channel was to carry the push to. */
  target: number
  /** Handed to the channel: APNs refusing a token of the other environment is not sent. */
  sent: number
  received: number
  /** Reached the device at once. */
  onlinePush: number
  /** Devices of this lane that opened the notification, or the message. */
  click: number
  msgClick: number
}

/**
 * The lane of a delivery. Android: `jg_android` or the maker's channel (`xiaomi`, `huawei`, …);
 * iOS: `apns`; HarmonyOS: `hmpns` or `jg_hmos`; quick apps `quick_jg`; Windows Phone `mpns`.
 * A row from before the routes were recorded (route and reason NULL) took the platform's own
 * channel then: JPush on Android, APNs on iOS, Push Kit on HarmonyOS.
 */
export function laneOf(platform: PushPlatform, route: string | null): string {
  switch (platform) {
    case 'android':
      return route === null || route === 'jpush' ? 'jg_android' : route
    case 'ios':
      return 'apns'
    case 'hmos':
      return route === 'jpush' ? 'jg_hmos' : 'hmpns'
    case 'quickapp':
      return 'quick_jg'
    default:
      return 'mpns'
  }
}

export interface PlatformCounts {
  /** Devices targeted on the platform. */
  target: number
  /** Reached the device: online at push time, or came online within time_to_live. */
  received: number
  /** Reached the device at once (it was online when the push was made). */
  onlinePush: number
  /** The push carries a notification for this platform. */
  notification: boolean
  /** Devices that opened the notification. */
  click: number
  /** Devices that opened the message (a push without a notification for the platform). */
  msgClick: number
  /** The same, per lane (laneOf), for the lanes the push took. */
  lanes: Record<string, LaneCounts>
}

export interface PushCounts {
  msgId: string
  /** Unknown msg_id, another app's, or older than the 30 days statistics are kept. */
  known: boolean
  message: boolean
  platforms: Record<PushPlatform, PlatformCounts>
}

function countPush(
  push: Push | undefined,
  routes: readonly RouteCount[],
  clicks: ClickCount[],
  msgId: string,
  now: number,
): PushCounts {
  const known = push !== undefined && now - push.createdAt <= PUSH_LIMITS.reportRetentionMs
  const notification =
    known && isObject(push.payload.notification) ? parseNotification(push.payload.notification) : {}
  const platforms = Object.fromEntries(
    NOTIFICATION_PLATFORMS.map(p => {
      const clicked = (kind: ClickCount['kind']) =>
        known ? (clicks.find(c => c.platform === p && c.kind === kind)?.n ?? 0) : 0
      const lanes: Record<string, LaneCounts> = {}
      let target = 0
      let received = 0
      let onlinePush = 0
      // Counted in SQL per route (deliveries.ts, routeCounts); several routes may share a lane.
      if (known)
        for (const r of routes) {
          if (r.platform !== p) continue
          const lane = laneOf(p, r.route)
          lanes[lane] ??= { target: 0, sent: 0, received: 0, onlinePush: 0, click: 0, msgClick: 0 }
          const l = lanes[lane]
          l.target += r.target
          // No route: refused before any channel took it (wrong-apns-environment).
          l.sent += r.sent
          l.received += r.received
          l.onlinePush += r.onlinePush
          l.click += r.click
          l.msgClick += r.msgClick
          target += r.target
          received += r.received
          onlinePush += r.onlinePush
        }
      return [
        p,
        {
          lanes,
          target,
          received,
          onlinePush,
          notification: notification[p] !== undefined,
          click: clicked('notification'),
          msgClick: clicked('message'),
        },
      ]
    }),
  ) as Record<PushPlatform, PlatformCounts>
  return { msgId, known, message: known && push.payload.message !== undefined, platforms }
}

export function countPushes(deps: PipelineDeps, appKey: string, msgIds: string[], now: number): PushCounts[] {
  const { pushes, pushDeliveries, pushClicks } = deps.store
  return msgIds.map(id => {
    const push = pushes.get(appKey, id)
    return countPush(
      push,
      push ? pushDeliveries.routeCounts(appKey, id, push.createdAt) : [],
      pushClicks.countsOf(appKey, id),
      id,
      now,
    )
  })
}

/** A counter, or null when the push had no target of that kind (the docs' "no data"). */
export const orNull = (has: boolean, n: number) => (has ? n : null)
