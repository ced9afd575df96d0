import { z } from 'zod'
import type { ApiError } from '../errors.js'
import { isAbsent, optionalInt, optionalString } from '../http/body/fields.js'
import { field, jsonBody, type ObjectReader } from '../http/reads.js'
import { nationalMobile } from '../mobile.js'
import { formatLocal, parseLocal } from '../time.js'
import { smsErrors } from './errors.js'
import { SMS_LIMITS } from './limits.js'

// The JSMS fields (jsms-api.md §2), each read as leniently as the official clients need (§1.3; the
// generic readers are in http/body/fields.ts): `temp_para` may be `[]`, a mobile may carry its
// country code, ids may come as strings. Each declares what the OpenAPI document shows of it and
// what a wrong value answers (http/reads.ts).

export type Body = Record<string, unknown>

/**
 * A JSON object body: none is 50003, anything else 50007. Both are the surface's failures of every
 * body (sms/dialect.ts), which the document lists for every route that takes one.
 */
export const smsObject: ObjectReader = {
  read(body) {
    if (body === undefined || body === null) throw smsErrors.missingBody()
    if (typeof body !== 'object' || Array.isArray(body)) throw smsErrors.invalidBody()
    return body as Body
  },
  errors: [],
}

/** A JSMS body: the object, then `shape`'s fields in the order written. */
export const smsBody = <S extends Parameters<typeof jsonBody>[1]>(shape: S) => jsonBody(smsObject, shape)

export function readMobile(value: unknown): string {
  if (isAbsent(value)) throw smsErrors.missingMobile()
  let national: string | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value)) national = nationalMobile(String(value))
  else if (typeof value === 'string') national = nationalMobile(value)
  if (national === undefined)
    throw smsErrors
      .invalidMobile()
      .because(
        `${JSON.stringify(value)} is not a mainland mobile (11 digits from 13 to 19, optionally 86 or +86 first)`,
      )
  return national
}

export const mobile = field({
  read: readMobile,
  schema: z
    .string()
    .describe(
      'Mainland mobile: 11 digits starting 13–19, optionally prefixed 86 or +86 (a JSON number is read too).',
    ),
  errors: [smsErrors.missingMobile(), smsErrors.invalidMobile()],
})

const INT32_MAX = 2_147_483_647

export const tempId = field({
  read(value): number {
    const id = optionalInt(value, smsErrors.invalidTempId)
    if (id === undefined) throw smsErrors.missingTempId()
    if (id <= 0 || id > INT32_MAX) throw smsErrors.invalidTempId()
    return id
  },
  schema: z.int().describe('Template id (a numeric string is read too).'),
  errors: [smsErrors.missingTempId(), smsErrors.invalidTempId()],
})

/** A signature id; 0 and absent both mean "the app's default signature" (Java omits ids ≤ 0). */
export const signId = field({
  read(value): number | undefined {
    const id = optionalInt(value, smsErrors.signaturesNotExist)
    return id === undefined || id === 0 ? undefined : id
  },
  schema: z.int().describe("Signature id; absent: the app's default signature.").optional(),
  errors: [smsErrors.signaturesNotExist()],
})

const tempParaSchema = z
  .record(z.string(), z.string())
  .describe('Values for the `{{name}}` placeholders of the template (numbers are read as their text).')

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

export const tempPara = field({
  read: readTempPara,
  schema: tempParaSchema.optional(),
  errors: [smsErrors.templateParameterInvalid()],
})

/** A message's `tag`, the app's own label: at most 10 characters. */
export const tag = field({
  read(value): string | undefined {
    const label = optionalString(value, smsErrors.invalidBody)
    if (label !== undefined && [...label].length > SMS_LIMITS.maxTagLength) throw smsErrors.invalidBody()
    return label
  },
  schema: z.string().max(SMS_LIMITS.maxTagLength).describe('A label, not shown in the text.').optional(),
  errors: [smsErrors.invalidBody()],
})

/** Seconds of validity for a code: absent or 0 means "use the default". */
export const ttl = (description?: string) =>
  field({
    read(value): number | undefined {
      const seconds = optionalInt(value, smsErrors.invalidTtlValue)
      if (seconds === undefined || seconds === 0) return undefined
      if (seconds < 0 || seconds > SMS_LIMITS.maxTtlSeconds) throw smsErrors.invalidTtlValue()
      return seconds
    },
    schema: (description === undefined
      ? z.int().min(1).max(SMS_LIMITS.maxTtlSeconds)
      : z.int().min(1).max(SMS_LIMITS.maxTtlSeconds).describe(description)
    ).optional(),
    errors: [smsErrors.invalidTtlValue()],
  })

/** `yyyy-MM-dd HH:mm:ss` in the configured zone, strictly after the app's now (50027). */
export const sendTime = (timeZone: string) =>
  field({
    read(value, req): number {
      if (typeof value !== 'string') throw smsErrors.invalidSendTime().because('missing, or not a string')
      const at = parseLocal(value.trim(), timeZone)
      if (at === undefined)
        throw smsErrors.invalidSendTime().because(`"${value}" is not yyyy-MM-dd HH:mm:ss (${timeZone})`)
      if (at <= req.tenant.now())
        throw smsErrors
          .invalidSendTime()
          .because(
            `"${value}" (${timeZone}) is not after the app's clock, ${formatLocal(req.tenant.now(), timeZone)}`,
          )
      return at
    },
    schema: z
      .string()
      .describe(
        '`yyyy-MM-dd HH:mm:ss` in SMS_TIME_ZONE (Beijing time by default), later than the app clock.',
      ),
    errors: [smsErrors.invalidSendTime()],
  })

/** The whole list of a batch, `[{mobile, temp_para}]`: 50030 when empty, 50031 over 1000. */
export const recipients = field({
  read(value): unknown[] {
    if (value === undefined || value === null) throw smsErrors.recipientsIsEmpty()
    if (!Array.isArray(value)) throw smsErrors.invalidBody()
    if (value.length === 0) throw smsErrors.recipientsIsEmpty()
    if (value.length > SMS_LIMITS.maxRecipients)
      throw smsErrors
        .tooMuchRecipients()
        .because(`${value.length} recipients, over ${SMS_LIMITS.maxRecipients}`)
    return value
  },
  schema: z
    .array(z.object({ mobile: mobile.schema, temp_para: tempPara.schema }))
    .describe('1–1000 recipients; a mobile repeated in the batch is refused alone (50034).'),
  errors: [smsErrors.recipientsIsEmpty(), smsErrors.invalidBody(), smsErrors.tooMuchRecipients()],
})

/**
 * A temp_id or sign_id in the path: the clients hold them in 32-bit ints (jsms-api.md §1.7), so
 * anything else is the unknown id's code.
 */
export function readPathId(value: unknown, invalid: () => ApiError): number {
  const digits = String(value ?? '').trim()
  if (!/^\d{1,10}$/.test(digits)) throw invalid()
  const id = Number(digits)
  if (id <= 0 || id > INT32_MAX) throw invalid()
  return id
}

/** A path id read as readPathId reads it. */
export const pathId = (description: string, invalid: () => ApiError) =>
  field({
    read: value => readPathId(value, invalid),
    schema: z.string().describe(description),
    errors: [invalid()],
  })

/** The answer of every send: the message's id. */
export const msgIdAnswer = z.object({ msg_id: z.string().describe('The message id, digits as a string.') })
