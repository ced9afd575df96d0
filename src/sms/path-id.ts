import type { ApiError } from '../errors.js'

const INT32_MAX = 2_147_483_647

/** A temp_id or sign_id from the path: the clients hold them in 32-bit ints (jsms-api.md §1.7). */
export function readPathId(value: unknown, invalid: () => ApiError): number {
  const text = String(value ?? '').trim()
  if (!/^\d{1,10}$/.test(text)) throw invalid()
  const id = Number(text)
  if (id <= 0 || id > INT32_MAX) throw invalid()
  return id
}
