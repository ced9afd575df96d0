import type { App } from '../../store/apps/apps.js'

/** Bounded like the row caches: forgetting a header only means checking it again. */
const LIMIT = 10_000

/**
 * The exact Authorization headers that authenticated an app, each with the app row (the cached,
 * frozen object) it authenticated against. A request that sends one of them again is that app's
 * without decoding the header or hashing its secret again (≈ 2–3 µs of every request under load:
 * docs/performance.md). The entry holds only while the app's cached row is the very object it was
 * checked against: a new secret, any change to the app's row, its removal or a reset makes the
 * store read a new object, and the header is checked again from scratch.
 *
 * Only headers that succeeded are kept, so a wrong secret always takes the full, constant-time
 * path (tenancy.ts); a lookup hashes the whole header with V8's seeded string hash, which tells a
 * caller nothing about a stored header it does not already hold.
 */
export function createKnownCredentials(current: (appKey: string) => App | undefined) {
  const known = new Map<string, App>()
  return {
    appOf(header: string | undefined): App | undefined {
      if (header === undefined) return undefined
      const app = known.get(header)
      if (app === undefined) return undefined
      if (current(app.appKey) === app) return app
      known.delete(header)
      return undefined
    },
    remember(header: string | undefined, app: App): void {
      if (header === undefined) return
      if (known.size >= LIMIT) known.clear()
      known.set(header, app)
    },
  }
}
