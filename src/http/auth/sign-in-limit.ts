import type { FastifyBaseLogger } from 'fastify'
import { createFixedWindow } from '../../limits/fixed-window.js'

const MINUTE_MS = 60_000

/**
 * Failed sign-ins on the control plane, per client address (SIGN_IN_FAILURES_PER_MINUTE): the
 * operator's password, an app's masterSecret typed into the web UI, any credentials /_sandbox
 * refuses, all count. Without a limit a client could try thousands of operator passwords a second.
 * Once an address has failed `limit` times in its minute, its requests whose user is not an
 * appKey are refused (429 with Retry-After) until the minute ends, without being checked: the
 * operator's right password included, or the one guess that did not get a 429 would be the right
 * one; and any such user alike, so that a 429 does not tell the operator's user name either (it is
 * never 24 letters or digits: config.ts).
 *
 * An app's credentials are still checked: its masterSecret can be tried on /v1 and /v3 as fast as
 * the vendor allows (they answer wrong credentials as the vendor does, with no limit of the
 * sandbox's), so holding them back here would protect nothing and lock out every app signing in
 * from an address shared with a failing client (a CI host, Docker's bridge).
 */
export function createSignInLimit(limit: number, log: FastifyBaseLogger) {
  const window = createFixedWindow(MINUTE_MS)
  // One warn line per address per window: a flood of guesses must not become a flood of lines.
  const warned = new Map<string, number>()
  return {
    /** Seconds the address must wait before its credentials are checked again; 0: none. */
    waitOf(client: string, now: number): number {
      const w = window.peek(client, now, limit)
      return w.remaining > 0 ? 0 : Math.max(1, w.resetSeconds)
    },
    /** The address's credentials were refused. */
    failed(client: string, now: number): void {
      const w = window.hit(client, now, limit)
      if (w.remaining > 0) return
      const since = warned.get(client)
      if (since !== undefined && now >= since && now < since + MINUTE_MS) return
      if (warned.size >= 10_000) warned.clear()
      warned.set(client, now)
      log.warn(
        { client, failures: limit, retryAfterS: w.resetSeconds },
        `${limit} failed sign-ins on /_sandbox from ${client} within a minute (SIGN_IN_FAILURES_PER_MINUTE): its sign-ins other than apps' wait ${w.resetSeconds} s`,
      )
    },
  }
}
