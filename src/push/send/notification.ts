import type { PushPlatform } from '../../store/push/devices.js'
import { pushErrors } from '../errors.js'
import { isIntIn, isObject, type Json } from '../values.js'

// notification and its platform objects (jpush-api.md §5.3) with the §5.11 rows: not an object
// or empty → 1003 (hmos: 1002), no alert → 1003, wrong types → 1003, a misspelt key → 1009.

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

/** Documented fields with a checkable type; other keys pass (php and java merge custom keys in). */
const FIELDS: Record<(typeof NOTIFICATION_PLATFORMS)[number], Record<string, Rule>> = {
  android: {
    alert: str,
    title: str,
    builder_id: int(0, 2 ** 31 - 1),
    channel_id: str,
    category: str,
    priority: int(-2, 2),
    style: int(0, 3),
    alert_type: int(-1, 7),
    big_text: str,
    inbox: obj,
    big_pic_path: str,
    large_icon: str,
    small_icon_uri: str,
    intent: obj,
    uri_activity: str,
    uri_action: str,
    badge_add_num: int(1, 99),
    badge_set_num: int(0, 99),
    badge_class: str,
    sound: str,
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
    intent: obj,
    badge_add_num: int(1, 99),
    badge_set_num: int(0, 99),
    sound_duration: int(1, 60),
    extras: obj,
  },
  quickapp: { alert: str, title: str, page: str, extras: obj },
  winphone: { alert: str, title: str, _open_page: str, extras: obj },
}

// The docs' own 1009 examples are near-misses of documented keys (content_available for
// content-available, build_id for builder_id): a key that differs from a documented one only in
// `-`/`_`/case, or one of the listed misspellings, is refused; unknown custom keys are not.
const MISSPELLINGS: Record<string, string> = { build_id: 'builder_id' }
const squash = (key: string) => key.toLowerCase().replace(/[-_]/g, '')

function checkKeys(platform: keyof typeof FIELDS, o: Json): void {
  const documented = Object.keys(FIELDS[platform])
  for (const key of Object.keys(o)) {
    if (documented.includes(key)) continue
    if (key in MISSPELLINGS || documented.some(d => squash(d) === squash(key)))
      throw pushErrors.unsupportedKey(key)
  }
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
