import { z } from 'zod'
import { type LaneCounts, orNull, type PlatformCounts, type PushCounts } from './counts.js'

// The response items of the report host (jpush-api.md §6.1, §6.3, §6.4), built from PushCounts,
// each beside the schema of its answer. Counters are numbers, or null where the push had no
// target of that kind. Each delivery counts on the channel it took (its route): `jpush` the JPush
// connection, `android_pns` (with a `*_detail` per maker) the makers' channels, `ios` APNs, where a
// device of the other APNs environment is a target but never sent (docs/push.md "The counts").
// Clicks: `click` counts opened notifications, `msg_click` opened messages (Android's JPush
// channel only, as the vendor reports them); iOS and WinPhone have one `click` for both.

const count = z.int().nullable()
const counters = (keys: string[]) => z.object(Object.fromEntries(keys.map(k => [k, count])))
const openObject = z.record(z.string(), z.unknown())

export const receivedAnswer = z.array(
  z
    .object({ msg_id: z.string() })
    .extend(
      counters(['android_received', 'ios_apns_sent', 'ios_apns_received', 'ios_msg_received', 'wp_mpns_sent'])
        .shape,
    ),
)
export const receivedDetailAnswer = z.array(
  z
    .object({ msg_id: z.string() })
    .catchall(count)
    .describe('`jpush_received`, `ios_apns_sent`, `hmos_msg_received`…'),
)
export const messagesAnswer = z.array(
  z.object({ msg_id: z.string(), android: openObject, ios: openObject, winphone: openObject }),
)
export const messagesDetailAnswer = z.array(
  z.object({
    msg_id: z.string(),
    details: openObject.describe('notification, message, inapp, live_activity: target, sent, received…'),
    jpush: openObject,
    android_pns: openObject.describe(
      'pns_target, pns_sent, pns_received, pns_display, and xm_detail, hw_detail, honor_detail, mz_detail, oppo_detail, vivo_detail, fcm_detail: target, sent, received, display.',
    ),
    ios: openObject,
    winphone: openObject,
    quickapp_jpush: openObject,
    quickapp_pns: openObject,
  }),
)

/** The Android makers' channels the sandbox routes through, and their `android_pns.*_detail` key
 * (cav api/jpush/report/v3_get_message_detail.go:197-205; jpush-api.md §6.4). */
const PNS_DETAILS = [
  ['xiaomi', 'xm_detail'],
  ['huawei', 'hw_detail'],
  ['honor', 'honor_detail'],
  ['meizu', 'mz_detail'],
  ['oppo', 'oppo_detail'],
  ['vivo', 'vivo_detail'],
  ['fcm', 'fcm_detail'],
] as const

const NO_LANE: LaneCounts = { target: 0, sent: 0, received: 0, onlinePush: 0, click: 0, msgClick: 0 }
const laneOf = (x: PlatformCounts, lane: string): LaneCounts => x.lanes[lane] ?? NO_LANE
/** The makers' channels of Android, summed. */
function pnsOf(android: PlatformCounts): LaneCounts {
  const sum = { ...NO_LANE }
  for (const [vendor] of PNS_DETAILS) {
    const l = laneOf(android, vendor)
    sum.target += l.target
    sum.sent += l.sent
    sum.received += l.received
    sum.onlinePush += l.onlinePush
    sum.click += l.click
    sum.msgClick += l.msgClick
  }
  return sum
}

export function receivedItem(c: PushCounts) {
  const { android, ios, winphone } = c.platforms
  return {
    msg_id: c.msgId,
    android_received: orNull(android.target > 0, android.received),
    ios_apns_sent: orNull(ios.target > 0 && ios.notification, laneOf(ios, 'apns').sent),
    ios_apns_received: orNull(ios.target > 0 && ios.notification, ios.received),
    ios_msg_received: orNull(ios.target > 0 && c.message, ios.received),
    wp_mpns_sent: orNull(winphone.target > 0, winphone.target),
  }
}

export function receivedDetailItem(c: PushCounts) {
  const { android, winphone, quickapp, hmos } = c.platforms
  const jg = laneOf(android, 'jg_android')
  const pns = pnsOf(android)
  const hmpns = laneOf(hmos, 'hmpns')
  return {
    ...receivedItem(c),
    jpush_received: orNull(jg.target > 0, jg.received),
    android_pns_sent: orNull(pns.target > 0, pns.sent),
    android_pns_received: orNull(pns.target > 0, pns.received),
    live_acivity_sent: null, // sic: the vendor's spelling (jsdk, cav)
    live_acivity_received: null,
    quickapp_pns_sent: null,
    quickapp_jpush_received: orNull(quickapp.target > 0, quickapp.received),
    hmos_hmpns_sent: orNull(hmpns.target > 0 && hmos.notification, hmpns.sent),
    hmos_hmpns_received: orNull(hmpns.target > 0 && hmos.notification, hmpns.received),
    hmos_msg_sent: orNull(hmos.target > 0 && c.message, hmos.target),
    hmos_msg_received: orNull(hmos.target > 0 && c.message, hmos.received),
    wp_mpns_sent: orNull(winphone.target > 0, winphone.target),
  }
}

/**
 * A msg_id with no statistics (unknown, another app's, older than 30 days): every counter null, as
 * /v3/received answers it ("如果无此项数据则为 null"; the docs' /v3/messages example has null counters).
 */
const NO_DATA = {
  android: { received: null, target: null, online_push: null, click: null, msg_click: null },
  ios: { apns_sent: null, apns_target: null, apns_received: null, click: null, target: null, received: null },
  winphone: { mpns_target: null, mpns_sent: null, click: null },
}

export function messagesItem(c: PushCounts) {
  if (!c.known) return { msg_id: c.msgId, ...NO_DATA }
  const { android, ios, winphone } = c.platforms
  const apns = ios.notification ? ios : { target: 0, received: 0 }
  const msg = c.message ? ios : { target: 0, received: 0 }
  return {
    msg_id: c.msgId,
    android: {
      received: android.received,
      target: android.target,
      online_push: android.onlinePush,
      click: android.click,
      msg_click: android.msgClick,
    },
    ios: {
      apns_sent: ios.notification ? laneOf(ios, 'apns').sent : 0,
      apns_target: apns.target,
      apns_received: apns.received,
      click: ios.click + ios.msgClick,
      target: msg.target,
      received: msg.received,
    },
    winphone: {
      mpns_target: winphone.target,
      mpns_sent: winphone.target,
      click: winphone.click + winphone.msgClick,
    },
  }
}

type Kind = 'notification' | 'message'
type Platform = keyof PushCounts['platforms']

/** A lane's counters as `details.<kind>.sub_*.<lane>` shows them (cav ChannelStats). */
const channelStats = (l: LaneCounts, kind: Kind) => ({
  target: l.target,
  sent: l.sent,
  received: l.received,
  display: kind === 'notification' ? l.received : 0,
  click: kind === 'notification' ? l.click : l.msgClick,
})

/**
 * A platform's lanes for one kind: a notification by the channel each delivery took; a message
 * (no maker's channel or APNs carries one) all over the JPush connection, named `jgLane`.
 */
function lanesFor(x: PlatformCounts, kind: Kind, jgLane: string): Record<string, LaneCounts> {
  if (kind === 'notification') return x.lanes
  const all = Object.values(x.lanes)
  const sum = (f: (l: LaneCounts) => number) => all.reduce((n, l) => n + f(l), 0)
  return {
    [jgLane]: {
      target: x.target,
      sent: x.target,
      received: x.received,
      onlinePush: sum(l => l.onlinePush),
      click: sum(l => l.click),
      msgClick: sum(l => l.msgClick),
    },
  }
}

const JG_LANES: Record<Platform, string> = {
  android: 'jg_android',
  ios: 'jg_ios',
  hmos: 'jg_hmos',
  quickapp: 'quick_jg',
  winphone: 'mpns',
}

function kindDetail(c: PushCounts, kind: Kind) {
  const has = (p: Platform) => (kind === 'message' ? c.message : c.platforms[p].notification)
  const lanes = (p: Platform) => Object.entries(lanesFor(c.platforms[p], kind, JG_LANES[p]))
  /** `sub_<platform>`: each lane the push took there (cav v3_get_message_detail.go:128-162), or null. */
  const sub = (p: Platform) =>
    has(p) ? Object.fromEntries(lanes(p).map(([lane, l]) => [lane, channelStats(l, kind)])) : null
  const platforms = (['android', 'ios', 'hmos', 'quickapp', 'winphone'] as const).filter(has)
  if (platforms.length === 0) return null
  const all = platforms.flatMap(p => lanes(p).map(([, l]) => channelStats(l, kind)))
  const sum = (f: (x: (typeof all)[number]) => number) => all.reduce((n, x) => n + f(x), 0)
  return {
    target: sum(x => x.target),
    sent: sum(x => x.sent),
    received: sum(x => x.received),
    display: sum(x => x.display),
    click: sum(x => x.click),
    sub_android: sub('android'),
    sub_ios: sub('ios'),
    sub_quickapp: sub('quickapp'),
    sub_hmos: sub('hmos'),
  }
}

/** Eight keys per item, as the ruby client's 2025 test expects. */
export function messagesDetailItem(c: PushCounts) {
  const { android, ios, winphone, quickapp } = c.platforms
  const jg = laneOf(android, 'jg_android')
  const pns = pnsOf(android)
  const apns = laneOf(ios, 'apns')
  const display = (l: LaneCounts) => (android.notification ? l.received : 0)
  return {
    msg_id: c.msgId,
    details: {
      notification: kindDetail(c, 'notification'),
      message: kindDetail(c, 'message'),
      inapp: null,
      live_activity: null,
    },
    jpush: {
      target: jg.target,
      online_push: jg.onlinePush,
      sent: jg.sent,
      received: jg.received,
      display: display(jg),
      click: jg.click,
      msg_click: jg.msgClick,
    },
    android_pns: {
      pns_target: pns.target,
      pns_sent: pns.sent,
      pns_received: pns.received,
      pns_display: display(pns),
      ...Object.fromEntries(
        PNS_DETAILS.map(([vendor, key]) => {
          const l = laneOf(android, vendor)
          return [key, { target: l.target, sent: l.sent, received: l.received, display: display(l) }]
        }),
      ),
    },
    ios: {
      apns_target: ios.notification ? apns.target : 0,
      apns_sent: ios.notification ? apns.sent : 0,
      apns_received: ios.notification ? apns.received : 0,
      apns_click: ios.click,
      msg_target: c.message ? ios.target : 0,
      msg_received: c.message ? ios.received : 0,
    },
    winphone: {
      mpns_target: winphone.target,
      mpns_sent: winphone.target,
      click: winphone.click + winphone.msgClick,
    },
    quickapp_jpush: {
      target: quickapp.target,
      sent: quickapp.target,
      received: quickapp.received,
      click: quickapp.click + quickapp.msgClick,
    },
    quickapp_pns: { pns_target: 0, pns_sent: 0, pns_received: 0, click: 0 },
  }
}
