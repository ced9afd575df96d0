import type { ApiError } from '../../errors.js'

// Lenient readers for what the official clients send (jsms-api.md §1.3), shared by every surface
// that reads JSON fields by hand: `null` and `""` are absent, numbers may come as strings and
// strings as numbers. Each surface says which of its errors a wrong value is.

export const isAbsent = (v: unknown) => v === undefined || v === null || v === ''

/** An integer given as a number or a numeric string; undefined when absent. */
export function optionalInt(value: unknown, invalid: () => ApiError): number | undefined {
  if (isAbsent(value)) return undefined
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'string' && /^\s*[-+]?\d{1,15}\s*$/.test(value)) return Number(value)
  throw invalid()
}

/** A string, or a finite number as its text; undefined when absent. */
export function optionalString(value: unknown, invalid: () => ApiError): string | undefined {
  if (isAbsent(value)) return undefined
  if (typeof value === 'string') return value
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  throw invalid()
}
