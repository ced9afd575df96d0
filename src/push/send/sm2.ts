import type { FastifyRequest } from 'fastify'
import { pushErrors } from '../errors.js'
import { isObject, type Json } from '../values.js'
import { type Audience, parseAudience } from './audience.js'
import { NOTIFICATION_PLATFORMS } from './notification.js'
import { parseOptions } from './options.js'
import type { PushRequest } from './payload.js'

// SM2-encrypted pushes (docs/fidelity.md "SM2-encrypted push"). With `X-Encrypt-Type: SM2` the
// vendor's Java SDKs send `{"audience": <the audience in clear>, "payload": "<base64 of the SM2
// ciphertext of the whole push>"}`:
// - jiguang-sdk-java: PushClient.java:26-28 (`sendWithSM2`, POST /v3/push with the header),
//   ApiEncoder.java:101-107 (payload = Base64 of SM2Util.encrypt of the push's JSON, audience =
//   the push's own audience: "all" or {"tag":[…],…}), SM2Push.java:16-23 (Jackson: audience, then
//   payload; a null audience is written `null`).
// - jpush-api-java-client with `encrypt.type=SM2`: PushClient.java:328-341 and 352-365 (sendPush,
//   sendPushValidate, sendFilePush at :171, :180, :194, :202, :216), GroupPushClient.java:69-82
//   (sendGroupPush); EncryptPushPayload.java:9-13 (Gson: payload, then audience). Its audience is
//   the Audience object as Gson writes its fields (Audience.java:17-19, AudienceTarget.java:15-16):
//   `{"all":false,"file":false,"targets":[{"audienceType":"TAG","values":["a"]}]}`, or
//   `{"all":true,"file":false}`. jiguang-common sends the header with every request once the
//   type is set (NativeHttpClient.java:142-144), whatever the body.
// The ciphertext is BouncyCastle's SM2Engine output (C1‖C2‖C3: an uncompressed point 0x04‖X‖Y of
// 65 bytes, the text, a 32-byte SM3 hash). Only JiGuang holds the private key: the sandbox reads
// the audience, reaches its devices on every platform, and records the push as encrypted — its
// notification, message, options, sendno and cid are inside the ciphertext, unread.

/** `X-Encrypt-Type: SM2…` (jsdk ApiEncoder.java:57-61 tests `startsWith("SM2")`). Another value is a clear push. */
export function isSm2(req: FastifyRequest): boolean {
  const type = req.headers['x-encrypt-type']
  return typeof type === 'string' && type.trim().toUpperCase().startsWith('SM2')
}

/** C1 (65) + C3 (32): a ciphertext is longer than this, by the length of the text. */
const SM2_OVERHEAD = 97
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** What an encrypted push's `payload` must be; otherwise 1003 with what is wrong. */
function checkCiphertext(value: unknown): string {
  if (typeof value !== 'string')
    throw pushErrors.invalid('payload must be a base64 string of the SM2 ciphertext')
  if (!BASE64.test(value)) throw pushErrors.invalid('payload is not base64')
  const bytes = Buffer.from(value, 'base64')
  if (bytes.length <= SM2_OVERHEAD || bytes[0] !== 0x04)
    throw pushErrors.invalid('payload is not an SM2 ciphertext (C1C2C3, starting 0x04)')
  return value
}

/** The old Java client's Gson names of audience types (AudienceType.java:4-11) → the wire's keys. */
const AUDIENCE_TYPES: Record<string, string> = {
  TAG: 'tag',
  TAG_AND: 'tag_and',
  TAG_NOT: 'tag_not',
  ALIAS: 'alias',
  SEGMENT: 'segment',
  ABTEST: 'abtest',
  REGISTRATION_ID: 'registration_id',
  FILE: 'file',
}

const isGsonAudience = (value: Json) =>
  typeof value.all === 'boolean' && (value.targets !== undefined || value.all)

/**
 * The clear audience in the wire's own form: "all", `{"tag":[…]}`, `{"file":{"file_id"}}`. The
 * old Java client's Gson form `{"all","file","targets":[{"audienceType","values"}]}` is rewritten
 * into it; anything else is returned as given, for the route's audience reader to judge.
 */
export function clearAudience(value: unknown): unknown {
  if (!isObject(value) || !isGsonAudience(value)) return value
  if (value.all === true) return 'all'
  if (!Array.isArray(value.targets)) throw pushErrors.invalid('audience.targets must be an array')
  const out: Json = {}
  for (const target of value.targets) {
    const type = isObject(target) && typeof target.audienceType === 'string' ? target.audienceType : ''
    const key = AUDIENCE_TYPES[type]
    const values = isObject(target) ? target.values : undefined
    if (!key || !Array.isArray(values))
      throw pushErrors.invalid('audience.targets must hold {"audienceType","values"} of a known type')
    // AudienceTarget.toFileJSON (AudienceTarget.java:106-114): the file's one id.
    out[key] = key === 'file' ? { file_id: values[0] ?? null } : values
  }
  return out
}

/**
 * An encrypted push as a PushRequest: its audience read by `readAudience` (the route's: a file's on
 * /v3/push/file), every platform, default options, and no readable content. `message` is an empty
 * marker so that every device the audience names is reached (fan-out.ts `reaches`); the stored
 * body is what the sandbox knows: `{"audience","encrypted":"SM2","payload"}`.
 */
export function parseSm2Push(
  raw: unknown,
  readAudience: (value: unknown) => Audience = parseAudience,
): PushRequest {
  if (raw === undefined || raw === null) throw pushErrors.missing('payload')
  if (!isObject(raw)) throw pushErrors.invalid('The request body must be a JSON object')
  if (raw.payload === undefined || raw.payload === null || raw.payload === '')
    throw pushErrors.missing('payload')
  const payload = checkCiphertext(raw.payload)
  if (raw.audience === undefined || raw.audience === null) throw pushErrors.missing('audience')
  const given = clearAudience(raw.audience)
  const audience = readAudience(given)
  return {
    platforms: [...NOTIFICATION_PLATFORMS],
    audience,
    notification: undefined,
    message: {},
    liveActivity: undefined,
    sms: undefined,
    options: parseOptions(undefined),
    cid: undefined,
    callback: undefined,
    encrypted: 'SM2',
    body: { audience: given, encrypted: 'SM2', payload },
  }
}

/** What an encrypted body is refused for, for the document. */
export const sm2Errors = [
  pushErrors.missing('payload'),
  pushErrors.invalid('payload is not base64'),
  pushErrors.invalid('payload is not an SM2 ciphertext (C1C2C3, starting 0x04)'),
]
