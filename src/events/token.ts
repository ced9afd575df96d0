import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Clock } from '../clock.js'
import type { App } from '../store/apps/apps.js'

/** How long a token opens the event stream (real time); an open stream outlives it. */
export const EVENT_TOKEN_TTL_MS = 10 * 60_000

/**
 * Short-lived tokens for GET /_sandbox/events, for a browser's EventSource, which cannot send an
 * Authorization header: POST /_sandbox/events/token (with the app's Basic credentials) gives one,
 * `?token=` takes it. A token is `<appKey>.<expiry ms>.<HMAC>`, signed with a key made at start and
 * never stored (a restart voids every token) over the appKey, the expiry and the app's secret (a
 * new secret voids the old tokens). It opens that app's stream and nothing else, and never
 * appears in the log (http/request-log.ts).
 */
// Both sides hashed first: equal lengths, and the comparison says nothing of the length.
const digest = (s: string) => createHash('sha256').update(s).digest()
const sameText = (a: string, b: string) => timingSafeEqual(digest(a), digest(b))

export function createEventTokens(clock: Clock) {
  const key = randomBytes(32)
  const sign = (appKey: string, expires: number, secret: string) =>
    createHmac('sha256', key).update(`${appKey}.${expires}.${secret}`).digest('base64url')

  return {
    issue(app: Pick<App, 'appKey' | 'masterSecret'>): { token: string; expiresAt: number } {
      const expiresAt = clock.now() + EVENT_TOKEN_TTL_MS
      return {
        token: `${app.appKey}.${expiresAt}.${sign(app.appKey, expiresAt, app.masterSecret)}`,
        expiresAt,
      }
    },
    /** The app the token was issued to, or undefined when it is not one of ours or has expired. */
    verify(token: string, appOf: (appKey: string) => App | undefined): App | undefined {
      const [appKey, expiry, signature, ...rest] = token.split('.')
      if (!appKey || !expiry || !signature || rest.length > 0 || !/^\d{1,16}$/.test(expiry)) return undefined
      const expiresAt = Number(expiry)
      const app = appOf(appKey)
      const ok = sameText(sign(appKey, expiresAt, app?.masterSecret ?? '\u0000'), signature)
      return app && ok && expiresAt > clock.now() ? app : undefined
    },
  }
}

export type EventTokens = ReturnType<typeof createEventTokens>
