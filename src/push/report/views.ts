import { z } from 'zod'
import { orNull, type PlatformCounts, type PushCounts } from './counts.js'

// The response items of the report host (jpush-api.md §6.1, §6.3, §6.4), built from PushCounts,
// each beside the schema of its answer. Counters are numbers, or null where the push had no
// target of that kind; vendor-channel and click counters are always null or 0 here.
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
    android_pns: openObject,
    ios: openObject,
    winphone: openObject,
    quickapp_jpush: openObject,
    quickapp_pns: openObject,
  }),
)

export function receivedItem(c: PushCounts) {
  const { android, ios, winphone } = c.platforms
  return {
    msg_id: c.msgId,
    android_received: orNull(android.target > 0, android.received),
    ios_apns_sent: orNull(ios.target > 0 && ios.notification, ios.target),
    ios_apns_received: orNull(ios.target > 0 && ios.notification, ios.received),
    ios_msg_received: orNull(ios.target > 0 && c.message, ios.received),
    wp_mpns_sent: orNull(winphone.target > 0, winphone.target),
  }
}

export function receivedDetailItem(c: PushCounts) {
  const { android, winphone, quickapp, hmos } = c.platforms
  return {
    ...receivedItem(c),
    jpush_received: orNull(android.target > 0, android.received),
    android_pns_sent: null,
    android_pns_received: null,
    live_acivity_sent: null, // sic: the vendor's spelling (jsdk, cav)
    live_acivity_received: null,
    quickapp_pns_sent: null,
    quickapp_jpush_received: orNull(quickapp.target > 0, quickapp.received),
    hmos_hmpns_sent: orNull(hmos.target > 0 && hmos.notification, hmos.target),
    hmos_hmpns_received: orNull(hmos.target > 0 && hmos.notification, hmos.received),
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
      apns_sent: apns.target,
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

const clicksOf = (x: PlatformCounts, kind: 'notification' | 'message') =>
  kind === 'notification' ? x.click : x.msgClick

function kindDetail(c: PushCounts, kind: 'notification' | 'message') {
  const has = (p: keyof PushCounts['platforms']) =>
    kind === 'message' ? c.message : c.platforms[p].notification
  const sub = (p: keyof PushCounts['platforms']) => {
    const x = c.platforms[p]
    return has(p)
      ? {
          target: x.target,
          sent: x.target,
          received: x.received,
          display: kind === 'notification' ? x.received : 0,
          click: clicksOf(x, kind),
        }
      : null
  }
  const all = (['android', 'ios', 'hmos', 'quickapp', 'winphone'] as const)
    .filter(has)
    .map(p => c.platforms[p])
  if (all.length === 0) return null
  const sum = (f: (x: (typeof all)[number]) => number) => all.reduce((n, x) => n + f(x), 0)
  return {
    target: sum(x => x.target),
    sent: sum(x => x.target),
    received: sum(x => x.received),
    display: kind === 'notification' ? sum(x => x.received) : 0,
    click: sum(x => clicksOf(x, kind)),
    sub_android: sub('android'),
    sub_ios: sub('ios'),
    sub_quickapp: sub('quickapp'),
    sub_hmos: sub('hmos'),
  }
}

/** Eight keys per item, as the ruby client's 2025 test expects. */
export function messagesDetailItem(c: PushCounts) {
  const { android, ios, winphone, quickapp } = c.platforms
  return {
    msg_id: c.msgId,
    details: {
      notification: kindDetail(c, 'notification'),
      message: kindDetail(c, 'message'),
      inapp: null,
      live_activity: null,
    },
    jpush: {
      target: android.target,
      online_push: android.onlinePush,
      sent: android.target,
      received: android.received,
      display: android.notification ? android.received : 0,
      click: android.click,
      msg_click: android.msgClick,
    },
    android_pns: { pns_target: 0, pns_sent: 0, pns_received: 0, pns_display: 0 },
    ios: {
      apns_target: ios.notification ? ios.target : 0,
      apns_sent: ios.notification ? ios.target : 0,
      apns_received: ios.notification ? ios.received : 0,
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
