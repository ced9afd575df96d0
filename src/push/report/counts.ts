import type { PipelineDeps } from '../../deps.js'
import type { ClickCount } from '../../store/push/clicks.js'
import type { Delivery } from '../../store/push/deliveries.js'
import type { PushPlatform } from '../../store/push/devices.js'
import type { Push } from '../../store/push/pushes.js'
import { PUSH_LIMITS } from '../limits.js'
import { NOTIFICATION_PLATFORMS, parseNotification } from '../send/notification.js'
import { isObject } from '../values.js'

// What the sandbox actually delivered, and what devices opened (POST /_sandbox/push/messages/
// {msg_id}/clicks), counted per platform for the report host (jpush-api.md §6). There are no
// vendor channels here (every push goes over the JPush connection or APNs), so those counters are
// 0 or null ("no data").

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
  deliveries: Delivery[],
  clicks: ClickCount[],
  msgId: string,
  now: number,
): PushCounts {
  const known = push !== undefined && now - push.createdAt <= PUSH_LIMITS.reportRetentionMs
  const notification =
    known && isObject(push.payload.notification) ? parseNotification(push.payload.notification) : {}
  const platforms = Object.fromEntries(
    NOTIFICATION_PLATFORMS.map(p => {
      const mine = known ? deliveries.filter(d => d.platform === p) : []
      const received = mine.filter(d => d.status === 'delivered')
      const clicked = (kind: ClickCount['kind']) =>
        known ? (clicks.find(c => c.platform === p && c.kind === kind)?.n ?? 0) : 0
      return [
        p,
        {
          target: mine.length,
          received: received.length,
          onlinePush: received.filter(d => d.deliveredAt === push?.createdAt).length,
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
  return msgIds.map(id =>
    countPush(
      pushes.get(appKey, id),
      pushDeliveries.ofPush(appKey, id),
      pushClicks.countsOf(appKey, id),
      id,
      now,
    ),
  )
}

/** A counter, or null when the push had no target of that kind (the docs' "no data"). */
export const orNull = (has: boolean, n: number) => (has ? n : null)
