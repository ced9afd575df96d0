import { request } from 'undici'
import { basic, newKey } from '../helpers.js'

/** How much bigger than the CI-sized default to run (RELIABILITY_SCALE=10 → ten times the cases). */
export const SCALE = Math.max(1, Number(process.env.RELIABILITY_SCALE ?? 1))

export interface Tenant {
  key: string
  secret: string
  auth: string
}

/** A fresh app of its own (auto-provisioned on first use with the default fixtures). */
export function newTenant(prefix = 't'): Tenant {
  const key = newKey(prefix)
  const secret = newKey('s')
  return { key, secret, auth: basic(key, secret) }
}

// Answers are checked field by field with expect(): a parsed JSON value, loosely typed on purpose.
// biome-ignore lint/suspicious/noExplicitAny: see above
export type Json = any

export interface Answer {
  status: number
  body: Json
}

/** A JSON call over a real socket. */
export async function http(url: string, method: string, auth: string, body?: unknown): Promise<Answer> {
  const res = await request(url, {
    method: method as 'GET',
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.body.text()
  return { status: res.statusCode, body: text === '' ? undefined : JSON.parse(text) }
}

/** Distinct mainland mobiles for one test run. */
export function mobiles(): () => string {
  let n = Math.floor(Math.random() * 100_000_000)
  return () => `139${String(n++ % 100_000_000).padStart(8, '0')}`
}
