import { ApiError } from '../errors.js'
import { isAbsent, optionalInt, optionalString } from '../http/body/fields.js'
import { readBy } from '../http/schema.js'
import { nationalMobile } from '../mobile.js'
import { invalidControlBody } from './dialect.js'
import { invalidField } from './errors.js'

// Pieces of the control plane's schemas.

/** An optional integer (a number or its text), else 400 90020 with `why` (`"field": problem`). */
export const intField = (why: string) =>
  readBy(v => optionalInt(v, () => invalidControlBody(why)), { type: 'integer', description: why })

/** An optional string (a number is taken as its text), else 400 90020 with `why`. */
export const textField = (why: string) =>
  readBy(v => optionalString(v, () => invalidControlBody(why)), { type: 'string', description: why })

/** The control plane's codes (errors.ts): the rest are a vendor's. */
const isSandboxCode = (code: number) => code >= 90_000 && code < 91_000

/**
 * Runs a vendor's reader or rule (a mobile, a tag, an alias limit) for one field of a control-plane
 * request: its refusal becomes 400 90020 naming the field, so /_sandbox never answers a vendor code.
 */
export function asField<T>(field: string, read: () => T): T {
  try {
    return read()
  } catch (err) {
    if (err instanceof ApiError && !isSandboxCode(err.code)) throw invalidField(field, err.message)
    throw err
  }
}

/** A mobile as /v1 reads it (national form), required; refused in the control plane's words. */
export function readControlMobile(field: string, value: unknown): string {
  if (isAbsent(value)) throw invalidField(field, 'required')
  // The same notations /v1 reads (sms/fields.ts readMobile): a text, or a number's digits.
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value
  const national = typeof text === 'string' ? nationalMobile(text) : undefined
  if (national === undefined)
    throw invalidField(field, 'must be a mainland China mobile number: 11 digits, perhaps after 86 or +86')
  return national
}

export const mobileField = (field: string) => readBy(v => readControlMobile(field, v))
