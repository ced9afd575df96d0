import { z } from 'zod'
import type { PushPlatform } from '../../device.js'
import { field } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { byteLength, isIntIn, isObject, type Json } from '../values.js'

// What a push says (jpush-api.md §5.3–§5.5, §5.9): notification and its platform objects, message,
// live_activity, and the sizes of what each platform receives. The §5.11 rows: not an object or
// empty → 1003 (hmos: 1002), no alert → 1003, wrong types → 1003, a key the docs do not list in a
// platform object → 1009 (custom keys go in `extras`), too big → 1005.

export const NOTIFICATION_PLATFORMS = ['android', 'ios', 'hmos', 'quickapp', 'winphone'] as const

type Rule = (value: unknown) => boolean

const int =
  (min: number, max: number): Rule =>
  v =>
    isIntIn(v, min, max)
const str: Rule = v => typeof v === 'string'
const obj: Rule = v => isObject(v)
const flag: Rule = v => typeof v === 'boolean' || v === 0 || v === 1
const badge: Rule = v => isIntIn(v, 0, 99_999) || (typeof v === 'string' && /^[+-]?\d{1,5}$/.test(v))
const stringOrObject: Rule = v => typeof v === 'string' || isObject(v)

const any: Rule = () => true

/**
 * The documented fields of each platform object, each with its type where it can be checked. Any
 * other key is 1009: "推送对象中有不支持的 key … 除文档中指定的字段外，还需传递自定义的 key 请在 extras
 * 中填写" (docs2019's 1009 row; the fields are today's docs, as cav and jsdk declare them). The same
 * row says Android takes no `sound`: today's docs and both Java SDKs send android.sound, so it is
 * taken (docs/fidelity.md "1009").
 */
const FIELDS: Record<(typeof NOTIFICATION_PLATFORMS)[number], Record<string, Rule>> = {
  android: {
    alert: str,
    title: str,
    builder_id: int(0, 2 ** 31 - 1),
    channel_id: str,
    category: any,
    priority: int(-2, 2),
    style: int(0, 3),
    alert_type: int(-1, 7),
    big_text: str,
    inbox: obj,
    big_pic_path: str,
    large_icon: str,
    small_icon_uri: str,
    icon_bg_color: str,
    intent: obj,
    uri_activity: str,
    uri_action: str,
    // The C# client (since 1.2.3) declares it a string (Jiguang.JPush/Model/Notification.cs,
    // `[JsonProperty("uri_flag")] public string URIFlag`): an Intent flag, as text or a number.
    uri_flag: v => typeof v === 'string' || Number.isInteger(v),
    badge_add_num: int(1, 99),
    badge_set_num: int(0, 99),
    badge_class: str,
    sound: str,
    show_begin_time: any,
    show_end_time: any,
    display_foreground: any,
    custom_buttons: v => Array.isArray(v),
    extras: obj,
  },
  ios: {
    alert: stringOrObject,
    sound: stringOrObject,
    badge,
    'content-available': flag,
    'mutable-content': flag,
    category: str,
    'thread-id': str,
    'interruption-level': v => ['active', 'critical', 'passive', 'time-sensitive'].includes(v as string),
    extras: obj,
  },
  hmos: {
    alert: str,
    title: str,
    category: str,
    large_icon: str,
    intent: obj,
    badge_add_num: int(1, 99),
    badge_set_num: int(0, 99),
    test_message: any,
    receipt_id: any,
    style: any,
    inbox: any,
    push_type: any,
    extra_data: any,
    display_foreground: any,
    sound: str,
    sound_duration: int(1, 60),
    hm_payload: any,
    extras: obj,
  },
  quickapp: { alert: str, title: str, page: str, extras: obj },
  winphone: { alert: str, title: str, _open_page: str, extras: obj },
}

function checkKeys(platform: keyof typeof FIELDS, o: Json): void {
  for (const key of Object.keys(o))
    if (!Object.hasOwn(FIELDS[platform], key)) throw pushErrors.unsupportedKey(key)
}

/** The notification as each platform will show it: the shared alert copied where none is set. */
export type PlatformNotifications = Partial<Record<PushPlatform, Json>>

export function parseNotification(value: unknown): PlatformNotifications {
  if (!isObject(value)) throw pushErrors.invalid('notification must be an object')
  const shared = value.alert
  if (shared !== undefined && typeof shared !== 'string')
    throw pushErrors.invalid('notification.alert must be a string')
  const out: PlatformNotifications = {}
  let any = false
  for (const platform of NOTIFICATION_PLATFORMS) {
    const o = value[platform]
    if (o === undefined || o === null) {
      if (typeof shared === 'string') out[platform] = { alert: shared }
      continue
    }
    if (!isObject(o)) throw pushErrors.invalid(`notification.${platform} must be an object`)
    if (Object.keys(o).length === 0) {
      if (platform === 'hmos') throw pushErrors.missing('notification.hmos.alert')
      throw pushErrors.invalid(`notification.${platform} must not be empty`)
    }
    checkKeys(platform, o)
    const alert = o.alert ?? shared
    if (alert === undefined) throw pushErrors.invalid(`notification.${platform}.alert is required`)
    for (const [key, rule] of Object.entries(FIELDS[platform])) {
      if (o[key] !== undefined && !rule(o[key]))
        throw pushErrors.invalid(`notification.${platform}.${key} is invalid`)
    }
    if (platform === 'quickapp' && (o.title === undefined || o.page === undefined)) {
      throw pushErrors.missing('notification.quickapp.title and page')
    }
    out[platform] = { ...o, alert }
    any = true
  }
  if (!any && typeof shared !== 'string') throw pushErrors.invalid('notification has no alert')
  return out
}

/** message (§5.4): msg_content is required (1002). */
export function parseMessage(value: unknown): Json {
  if (!isObject(value)) throw pushErrors.invalid('message must be an object')
  if (value.msg_content === undefined || value.msg_content === null)
    throw pushErrors.missing('message.msg_content')
  if (typeof value.msg_content !== 'string') throw pushErrors.invalid('message.msg_content must be a string')
  for (const key of ['title', 'content_type'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'string')
      throw pushErrors.invalid(`message.${key} is invalid`)
  }
  if (value.extras !== undefined && !isObject(value.extras))
    throw pushErrors.invalid('message.extras must be an object')
  return value
}

// Payload size limits (jpush-api.md §5.9, 1005). Bytes are counted as java does: the UTF-8 of
// the JSON text of each platform object as it will be delivered (the shared alert included).

const size = (value: unknown) => (value === undefined ? 0 : byteLength(JSON.stringify(value)))

export function checkSizes(
  notification: PlatformNotifications | undefined,
  message: Json | undefined,
  liveActivity: Json | undefined,
  explicitWinphone: boolean,
): void {
  if (notification?.android && size(notification.android) + size(message) > PUSH_LIMITS.androidBytes) {
    throw pushErrors.tooBig(`android notification and message exceed ${PUSH_LIMITS.androidBytes} bytes`)
  }
  if (!notification?.android && size(message) > PUSH_LIMITS.androidBytes) {
    throw pushErrors.tooBig(`message exceeds ${PUSH_LIMITS.androidBytes} bytes`)
  }
  // The `"ios":{…}` member, key included.
  if (notification?.ios && size(notification.ios) + 6 > PUSH_LIMITS.iosBytes) {
    throw pushErrors.tooBig(`ios notification exceeds ${PUSH_LIMITS.iosBytes} bytes`)
  }
  // Only a winphone object the caller wrote: the legacy platform should not cap everyone's alert.
  if (explicitWinphone && notification?.winphone && size(notification.winphone) > PUSH_LIMITS.winphoneBytes) {
    throw pushErrors.tooBig(`winphone notification exceeds ${PUSH_LIMITS.winphoneBytes} bytes`)
  }
  if (liveActivity && size(liveActivity.ios) + 6 > PUSH_LIMITS.liveActivityBytes) {
    throw pushErrors.tooBig(`live_activity exceeds ${PUSH_LIMITS.liveActivityBytes} bytes`)
  }
}

/** live_activity (§5.5): an `ios` object with event, content-state, attributes-type on start. */
export function parseLiveActivity(value: unknown): Json {
  if (!isObject(value)) throw pushErrors.invalid('live_activity must be an object')
  const ios = value.ios
  if (ios === undefined || ios === null) throw pushErrors.missing('live_activity.ios')
  if (!isObject(ios)) throw pushErrors.invalid('live_activity.ios must be an object')
  if (!['start', 'update', 'end'].includes(ios.event as string))
    throw pushErrors.invalid('live_activity.ios.event is invalid')
  if (ios['content-state'] === undefined) throw pushErrors.missing('live_activity.ios.content-state')
  if (!isObject(ios['content-state'])) throw pushErrors.invalid('live_activity.ios.content-state is invalid')
  if (ios.event === 'start' && typeof ios['attributes-type'] !== 'string') {
    throw pushErrors.missing('live_activity.ios.attributes-type')
  }
  return value
}

const open = (what: string) => z.record(z.string(), z.unknown()).describe(what)

export const notification = field({
  read: parseNotification,
  schema: open(
    '`alert` and per-platform objects: android, ios, hmos, quickapp, winphone, voip (§5.3).',
  ).optional(),
  errors: [
    pushErrors.invalid('notification.alert must be a string'),
    pushErrors.unsupportedKey('content_available'),
    pushErrors.missing('notification.hmos.alert'),
  ],
})

export const message = field({
  read: parseMessage,
  schema: open('A custom message: `msg_content` (required), title, content_type, extras (§5.4).').optional(),
  errors: [pushErrors.invalid('message must be an object'), pushErrors.missing('message.msg_content')],
})

export const liveActivity = field({
  read: parseLiveActivity,
  schema: open('iOS live activity (§5.5); not routed to devices here.').optional(),
  errors: [
    pushErrors.invalid('live_activity cannot be combined with notification or message'),
    pushErrors.missing('live_activity.ios'),
  ],
})

/** Only checked against the rest of the push: it shows a notification in the app. */
export const inappMessage = field({
  read: value => value,
  schema: open('`{"inapp_message": true}`, with a notification.').optional(),
  errors: [pushErrors.invalid('inapp_message needs notification and cannot go with message')],
})

/** Passed through: there are no vendor channels here. */
export const notification3rd = field({
  read: value => value,
  schema: open('Vendor notification for a custom message.').optional(),
  errors: [],
})

/** What checkSizes refuses (one example of 1005). */
export const sizeErrors = [pushErrors.tooBig(`ios notification exceeds ${PUSH_LIMITS.iosBytes} bytes`)]
