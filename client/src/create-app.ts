import { type ClientOptions, SandboxClient } from './client.js'
import { SandboxError } from './errors.js'
import type { Fetch } from './http.js'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'
const KEY_LENGTH = 24

/** A random key as the official clients require one: 24 letters or digits, after `prefix`. */
export function randomKey(prefix = ''): string {
  if (!/^[A-Za-z0-9]{0,16}$/.test(prefix)) throw new TypeError('prefix: at most 16 letters or digits')
  const bytes = crypto.getRandomValues(new Uint8Array(KEY_LENGTH - prefix.length))
  return prefix + Array.from(bytes, b => ALPHABET[b % ALPHABET.length]).join('')
}

export interface NewAppOptions extends Omit<ClientOptions, 'appKey' | 'masterSecret'> {
  /** The start of its appKey, to tell a test's apps apart in the sandbox's log. */
  prefix?: string
}

/**
 * A client for an app of its own: a fresh random appKey and masterSecret, provisioned by its first
 * request (README "Credentials and fixtures": any well-formed new appKey is a new, isolated app
 * with the default fixtures). Its developer's devKey and devSecret are the two reversed.
 */
export async function createApp(options: NewAppOptions = {}): Promise<SandboxClient> {
  const { prefix, ...rest } = options
  const client = new SandboxClient({ ...rest, appKey: randomKey(prefix), masterSecret: randomKey() })
  try {
    await client.app()
  } catch (err) {
    if (err instanceof SandboxError && err.status === 401)
      throw new SandboxError(
        401,
        err.code,
        `${err.message} (is AUTO_PROVISION off, or a cap reached?)`,
        err.body,
      )
    throw err
  }
  return client
}

export interface ReadyOptions {
  /** Real milliseconds to keep asking; 30 000 by default. */
  timeoutMs?: number
  fetch?: Fetch
}

/**
 * Resolves once GET /_sandbox/ready answers 200 (database and scheduler up): for a sandbox just
 * started in a container or a child process. Asks every 100 ms; rejects after `timeoutMs`.
 */
export async function waitUntilReady(baseUrl: string, options: ReadyOptions = {}): Promise<void> {
  const { timeoutMs = 30_000, fetch: fetcher = fetch } = options
  const url = `${baseUrl.replace(/\/+$/, '')}/_sandbox/ready`
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  while (Date.now() < deadline) {
    try {
      const res = await fetcher(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })
      if (res.ok) return
      last = `HTTP ${res.status} ${await res.text()}`
    } catch (err) {
      last = err instanceof Error ? err.message : String(err)
    }
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms: ${last}`)
}
