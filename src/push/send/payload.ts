import type { PushPlatform } from '../../store/push/devices.js'
import { type PushCallback, parseCallback } from '../delivery/callbacks.js'
import { pushErrors } from '../errors.js'
import { isObject, type Json } from '../values.js'
import { type Audience, parseAudience } from './audience.js'
import {
  NOTIFICATION_PLATFORMS,
  type PlatformNotifications,
  parseMessage,
  parseNotification,
} from './notification.js'
import { type PushOptions, parseOptions, parseSmsMessage, type SmsFallback } from './options.js'
import { checkSizes, parseLiveActivity } from './sizes.js'

// POST /v3/push and /v3/push/validate bodies (jpush-api.md §5.1), checked in the order of the
// §5.11 table: what is missing (1002), then what is malformed (1003), misspelt (1009), too big
// (1005). Unknown top-level keys pass: java and php add their own.

export interface PushRequest {
  platforms: PushPlatform[]
  audience: Audience
  notification: PlatformNotifications | undefined
  message: Json | undefined
  liveActivity: Json | undefined
  sms: SmsFallback | undefined
  options: PushOptions
  cid: string | undefined
  callback: PushCallback | undefined
  body: Json
}

function parsePlatform(value: unknown): PushPlatform[] {
  if (value === undefined || value === null) throw pushErrors.missing('platform')
  if (value === 'all') return [...NOTIFICATION_PLATFORMS]
  if (!Array.isArray(value) || value.length === 0) throw pushErrors.invalid(`platform value is invalid`)
  for (const p of value) {
    if (!NOTIFICATION_PLATFORMS.includes(p))
      throw pushErrors.invalid(
        typeof p === 'string' ? `platform '${p}' is invalid` : 'platform value is invalid',
      )
  }
  return [...new Set(value as PushPlatform[])]
}

const CID = /^([A-Za-z0-9]{24})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * `readAudience`: how the audience is read; /v3/push/file reads `{"file": {"file_id"}}` instead
 * (file-push.ts), at the same place in the order of codes.
 */
export function parsePush(
  raw: unknown,
  appKey: string,
  readAudience: (value: unknown) => Audience = parseAudience,
): PushRequest {
  if (raw === undefined || raw === null) throw pushErrors.missing('platform')
  if (!isObject(raw)) throw pushErrors.invalid('The request body must be a JSON object')
  const body = raw
  if (body.platform === undefined || body.platform === null) throw pushErrors.missing('platform')
  if (body.audience === undefined || body.audience === null) throw pushErrors.missing('audience')
  const present = (k: string) => body[k] !== undefined && body[k] !== null
  if (!present('notification') && !present('message') && !present('live_activity')) {
    throw pushErrors.missing('notification or message')
  }
  const platforms = parsePlatform(body.platform)
  const audience = readAudience(body.audience)
  let liveActivity: Json | undefined
  if (present('live_activity')) {
    if (present('notification') || present('message')) {
      throw pushErrors.invalid('live_activity cannot be combined with notification or message')
    }
    liveActivity = parseLiveActivity(body.live_activity)
  }
  const notification = present('notification') ? parseNotification(body.notification) : undefined
  const message = present('message') ? parseMessage(body.message) : undefined
  if (present('inapp_message') && (!notification || message)) {
    throw pushErrors.invalid('inapp_message needs notification and cannot go with message')
  }
  const sms = present('sms_message') ? parseSmsMessage(body.sms_message) : undefined
  const options = parseOptions(body.options)
  const callback = present('callback') ? parseCallback(body.callback) : undefined
  let cid: string | undefined
  if (present('cid')) {
    const m = typeof body.cid === 'string' ? CID.exec(body.cid) : null
    if (!m || m[1] !== appKey) throw pushErrors.invalid('cid is invalid')
    cid = body.cid as string
  }
  checkSizes(
    notification,
    message,
    liveActivity,
    isObject(body.notification) && body.notification.winphone != null,
  )
  return { platforms, audience, notification, message, liveActivity, sms, options, cid, callback, body }
}
