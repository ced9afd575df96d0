import { optionalInt, optionalString } from '../http/fields.js'
import { readBy } from '../http/schema.js'
import { invalidControlBody } from './dialect.js'

// Pieces of the control plane's schemas.

/** An optional integer (a number or its text), else 400 50007 with `why`. */
export const intField = (why: string) =>
  readBy(v => optionalInt(v, () => invalidControlBody(why)), { type: 'integer', description: why })

/** An optional string (a number is taken as its text), else 400 50007 with `why`. */
export const textField = (why: string) =>
  readBy(v => optionalString(v, () => invalidControlBody(why)), { type: 'string', description: why })

/** Epoch milliseconds as the ISO-8601 answer fields show them. */
export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
