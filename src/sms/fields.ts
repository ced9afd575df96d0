import { isAbsent, optionalInt, optionalString } from '../http/body/fields.js'
import { smsErrors } from './errors.js'
import { SMS_LIMITS } from './limits.js'

// The JSMS fields, read as leniently as the official clients need (jsms-api.md §1.3; the generic
// readers are in http/body/fields.ts): `temp_para` may be `[]`, a mobile may carry its country code.

export type Body = Record<string, unknown>

/** A JSON object body: none is 50003, anything else 50007. */
export function readBody(body: unknown): Body {
  if (body === undefined || body === null) throw smsErrors.missingBody()
  if (typeof body !== 'object' || Array.isArray(body)) throw smsErrors.invalidBody()
  return body as Body
}

// Mainland numbers as in every vendor example, optionally with the country code (86 or +86).
// The country code is dropped: one phone is one mobile for the frequency limits, repeat sends
// within a batch, unsubscriptions and the inspection endpoints, whatever notation came in.
const MOBILE = /^(?:\+?86)?(1[3-9]\d{9})$/

/** The national 11-digit form of a mobile, or undefined when it is not one. */
export function nationalMobile(text: string): string | undefined {
  return MOBILE.exec(text.trim())?.[1]
}

export function readMobile(value: unknown): string {
  if (isAbsent(value)) throw smsErrors.missingMobile()
  let mobile: string | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value)) mobile = nationalMobile(String(value))
  else if (typeof value === 'string') mobile = nationalMobile(value)
  if (mobile === undefined) throw smsErrors.invalidMobile()
  return mobile
}

export function readTempId(value: unknown): number {
  const id = optionalInt(value, smsErrors.invalidTempId)
  if (id === undefined) throw smsErrors.missingTempId()
  if (id <= 0 || id > 2_147_483_647) throw smsErrors.invalidTempId()
  return id
}

/** A signature id; 0 and absent both mean "the app's default signature" (Java omits ids ≤ 0). */
export function readSignId(value: unknown): number | undefined {
  const id = optionalInt(value, smsErrors.signaturesNotExist)
  return id === undefined || id === 0 ? undefined : id
}

/** Template parameters: an object of scalars, or `[]`/absent for none. */
export function readTempPara(value: unknown): Record<string, string> {
  if (isAbsent(value)) return {}
  if (Array.isArray(value)) {
    if (value.length === 0) return {}
    throw smsErrors.templateParameterInvalid()
  }
  if (typeof value !== 'object') throw smsErrors.templateParameterInvalid()
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || v === undefined) out[k] = ''
    else if (typeof v === 'string') out[k] = v
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v)
    else throw smsErrors.templateParameterInvalid()
  }
  return out
}

/** A message's `tag`, the app's own label: at most 10 characters. */
export function readMessageTag(value: unknown): string | undefined {
  const tag = optionalString(value, smsErrors.invalidBody)
  if (tag !== undefined && [...tag].length > SMS_LIMITS.maxTagLength) throw smsErrors.invalidBody()
  return tag
}

/** Seconds of validity for a code: absent or 0 means "use the default". */
export function readTtl(value: unknown, max: number): number | undefined {
  const ttl = optionalInt(value, smsErrors.invalidTtlValue)
  if (ttl === undefined || ttl === 0) return undefined
  if (ttl < 0 || ttl > max) throw smsErrors.invalidTtlValue()
  return ttl
}
