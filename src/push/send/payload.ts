import { z } from 'zod'
import type { PushPlatform } from '../../device.js'
import type { ApiError } from '../../errors.js'
import { type Field, field } from '../../http/reads.js'
import { pushErrors } from '../errors.js'
import { isObject, type Json } from '../values.js'
import { type Audience, audience, parseAudience } from './audience.js'
import { callback, type PushCallback, parseCallback } from './callback.js'
import { coerceScalars, strictTypesOf } from './coerce.js'
import {
  checkSizes,
  inappMessage,
  liveActivity,
  message,
  NOTIFICATION_PLATFORMS,
  notification,
  notification3rd,
  type PlatformNotifications,
  parseLiveActivity,
  parseMessage,
  parseNotification,
  sizeErrors,
} from './notification.js'
import {
  options,
  type PushOptions,
  parseOptions,
  parseSmsMessage,
  type SmsFallback,
  smsMessage,
} from './options.js'

// POST /v3/push and /v3/push/validate bodies (jpush-api.md §5.1), checked in the order of the
// §5.11 table: what is missing (1002), then each key in turn, malformed (1003) or misspelt (1009),
// then what is too big (1005). Unknown top-level keys pass: java and php add their own. Every
// other push the push host makes (batch, group, file, a schedule's) is read here too.

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
  /** An SM2-encrypted push (sm2.ts): its content is not readable here. */
  encrypted?: 'SM2'
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

const platform = field({
  read: parsePlatform,
  schema: z
    .union([z.literal('all'), z.array(z.enum(['android', 'ios', 'quickapp', 'hmos', 'winphone']))])
    .describe('"all" or the platforms to reach.'),
  errors: [pushErrors.invalid("platform 'x' is invalid")],
})

const CID = /^([A-Za-z0-9]{24})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** `<appKey>-<uuid>` of the pushing app (jpush-api.md §5.10). */
function readCid(value: unknown, appKey: string): string {
  const m = typeof value === 'string' ? CID.exec(value) : null
  if (!m || m[1] !== appKey) throw pushErrors.invalid('cid is invalid')
  return value as string
}

const cid = field({
  read: (value, req) => readCid(value, req.tenant.app.appKey),
  schema: z
    .string()
    .describe('`<appKey>-<uuid>` from GET /v3/push/cid: a repeat returns the first answer.')
    .optional(),
  errors: [pushErrors.invalid('cid is invalid')],
})

/** The body itself: none is a missing platform (what the vendor checks first). */
const bodyErrors = [
  pushErrors.missing('platform'),
  pushErrors.invalid('The request body must be a JSON object'),
]
/** The keys every push needs, checked before any is read. */
const required = [
  pushErrors.missing('platform'),
  pushErrors.missing('audience'),
  pushErrors.missing('notification or message'),
]

/**
 * `readAudience`: how the audience is read; /v3/push/file reads `{"file": {"file_id"}}` instead
 * (files/files.ts), at the same place in the order of codes.
 */
export function parsePush(
  raw: unknown,
  appKey: string,
  readAudience: (value: unknown) => Audience = parseAudience,
  { strictTypes = false }: { strictTypes?: boolean } = {},
): PushRequest {
  if (raw === undefined || raw === null) throw pushErrors.missing('platform')
  if (!isObject(raw)) throw pushErrors.invalid('The request body must be a JSON object')
  // Scalars sent as strings are read as Jackson reads them, unless the app is strict (coerce.ts).
  const body = strictTypes ? raw : coerceScalars(raw)
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
  const cid = present('cid') ? readCid(body.cid, appKey) : undefined
  checkSizes(
    notification,
    message,
    liveActivity,
    isObject(body.notification) && body.notification.winphone != null,
  )
  return { platforms, audience, notification, message, liveActivity, sms, options, cid, callback, body }
}

/** parsePush's strictness for an app of these settings. */
export const strictness = (settings: Record<string, unknown>) => ({ strictTypes: strictTypesOf(settings) })

/** The keys of a push body, each declared beside its reader, in the order parsePush reads them. */
const KEYS: Record<string, Field<unknown>> = {
  platform,
  audience,
  live_activity: liveActivity,
  notification,
  message,
  inapp_message: inappMessage,
  notification_3rd: notification3rd,
  sms_message: smsMessage,
  options,
  callback,
  cid,
}

/** What the document needs of a field. */
type Described = Pick<Field<unknown>, 'schema' | 'errors' | 'exactIntegers'>

interface Payload {
  schema: z.ZodObject
  errors: readonly ApiError[]
  exactIntegers: readonly string[]
}

/**
 * What a push body takes and refuses, for a route that reads one with parsePush: its audience
 * declared by `audience` (file push reads a file's), without `cid` where the route drops it (group
 * push, a task's push).
 */
export function payload({
  audience: own = audience,
  cid: withCid = true,
}: {
  audience?: Described
  cid?: boolean
} = {}): Payload {
  const keys = Object.entries<Described>({ ...KEYS, audience: own }).filter(
    ([name]) => withCid || name !== 'cid',
  )
  return {
    schema: z.object(Object.fromEntries(keys.map(([name, f]) => [name, f.schema]))),
    errors: [...bodyErrors, ...required, ...keys.flatMap(([, f]) => f.errors), ...sizeErrors],
    exactIntegers: keys.flatMap(([name, f]) => (f.exactIntegers ?? []).map(path => `${name}.${path}`)),
  }
}

/** The answer of a push (§5.8: jsdk rejects any other key). */
export const sent = z.object({
  sendno: z.string().describe('options.sendno as a string, "0" without one.'),
  msg_id: z.string().describe('17 digits: more than a JSON number keeps, so a string.'),
})
