import { createHash, timingSafeEqual } from 'node:crypto'
import { appNow, type Clock } from './clock.js'
import type { Config } from './config.js'
import type { ApiError } from './errors.js'
import type { ProvisioningGuard } from './limits/provisioning.js'
import { autoProvisionApp, isWellFormedCredential, ownDeveloperOf } from './seed/provision.js'
import type { App } from './store/apps/apps.js'
import type { Store } from './store/index.js'

/** The app a request speaks for, and the time as that app sees it. */
export interface Tenant {
  app: App
  now(): number
  /**
   * Set by an armed fault that matches one recipient of this request's batch (across/faults/faults.ts):
   * that recipient's error, so the batch refuses it alone.
   */
  recipientFault?(mobile: string): ApiError | undefined
}

/** The app as a tenant: its time is the process clock plus its own offset. */
export function tenantOf(clock: Clock, app: App): Tenant {
  return { app, now: () => appNow(clock, app) }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest()
// The stored side of every comparison is one of a few secrets: its digest is computed once.
const storedDigests = new Map<string, Buffer>()

/**
 * Constant-time comparison that does not leak the length either: both sides are hashed first.
 * `stored` is the known secret (its digest is remembered), `given` what the client sent.
 */
export function safeEqual(stored: string, given: string): boolean {
  let hs = storedDigests.get(stored)
  if (!hs) {
    hs = sha256(stored)
    if (storedDigests.size >= 10_000) storedDigests.clear()
    storedDigests.set(stored, hs)
  }
  return timingSafeEqual(hs, sha256(given))
}

/**
 * Resolves appKey:masterSecret to an app. An unknown appKey with well-formed credentials creates
 * the app with the default fixtures and a developer of its own when auto-provisioning is on, so
 * parallel CI jobs isolate themselves just by choosing their own appKey; within the caps of
 * `provisioning` (else ProvisioningRefused). Credentials that are, or would make, a developer's
 * are never taken for a new app: a devKey:devSecret pair sent as an app's stays a failure.
 * Returns undefined when authentication fails.
 */
export function authenticateApp(
  deps: { store: Store; config: Config; clock: Clock; provisioning: ProvisioningGuard },
  appKey: string,
  secret: string,
  client: string,
): Tenant | undefined {
  const { store, config, clock } = deps
  let app = store.apps.get(appKey)
  if (
    !app &&
    config.autoProvision &&
    isWellFormedCredential(appKey) &&
    isWellFormedCredential(secret) &&
    !store.apps.developer(appKey) &&
    !store.apps.developer(ownDeveloperOf(appKey, secret).devKey)
  ) {
    const now = clock.now()
    deps.provisioning.admit(
      client,
      now,
      () => store.apps.count(),
      () => autoProvisionApp(store, appKey, secret, now),
    )
    app = store.apps.get(appKey)
  }
  // Compare even when the app is unknown, so timing does not tell which appKeys exist.
  const ok = safeEqual(app?.masterSecret ?? '\u0000', secret)
  if (!app || !ok) return undefined
  return tenantOf(clock, app)
}
