import { PUSH_LIMITS } from './limits.js'

// Value rules shared by the push audience and the device API (jpush-api.md §5.2, §7).

export type Json = Record<string, unknown>

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export const byteLength = (value: string) => Buffer.byteLength(value, 'utf8')

// ASCII letters, digits, `_`, Chinese characters and @!#$&*+=.|￥ (docs2019, cav). ￥ written as
// \uFFE5: the bundle stays ASCII, which node reads at every start without decoding (scripts/bundle.ts).
const TAG_OR_ALIAS = /^[A-Za-z0-9_@!#$&*+=.|\uFFE5\p{Script=Han}]+$/u

/** A tag or alias: ≤ 40 bytes of UTF-8 in the documented character set. */
export function isValidTagOrAlias(value: string): boolean {
  return value.length > 0 && byteLength(value) <= PUSH_LIMITS.valueBytes && TAG_OR_ALIAS.test(value)
}

// The service's own ids are lowercase hex-ish; clients pass them through unchanged.
const REGISTRATION_ID = /^[0-9A-Za-z]{1,64}$/

export function isWellFormedRid(value: string): boolean {
  return REGISTRATION_ID.test(value)
}

/** An integer in [min, max], given as a JSON number. */
export function isIntIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
}

/**
 * The text of a value a client may send as a string or as a number; undefined for anything else.
 * Never String() a value before it is known to be a scalar: an array's text is its elements'
 * (`["13800138000"]` would pass for a mobile), and one nested deep overflows the stack.
 */
export function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return undefined
}

/** Strings (numbers are taken as their text) in a JSON array; undefined when it is not one. */
export function stringArray(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined
  const out: string[] = []
  for (const v of value) {
    const text = scalarText(v)
    if (text === undefined) return undefined
    out.push(text)
  }
  return out
}
