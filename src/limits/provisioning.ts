import type { AppResets } from '../app-resets.js'
import type { Config } from '../config.js'
import { createFixedWindow } from './fixed-window.js'

const MINUTE_MS = 60_000
const HOUR_MS = 3600_000

/**
 * Auto-provisioning refused by one of its caps. Not an ApiError: each surface answers it as its
 * own authentication failure (the appKey stays unknown, as with AUTO_PROVISION=false), with
 * `reason` in the message. `log` is true for the first refusal of its kind in a minute, so a flood
 * leaves one line a minute, not one per request.
 */
export class ProvisioningRefused extends Error {
  constructor(
    readonly reason: string,
    readonly log: boolean,
  ) {
    super(`auto-provisioning refused: ${reason}`)
    this.name = 'ProvisioningRefused'
  }
}

export type ProvisioningCaps = Pick<
  Config,
  'autoProvisionMaxApps' | 'autoProvisionPerMinute' | 'autoProvisionPerHour'
>

/**
 * The caps on auto-provisioning (each new app costs a few KB of disk until it expires: app-expiry.ts):
 * the number of apps in the database, and new apps per client address per minute and per hour
 * of process time. The minute lets a CI run make its apps in a burst; the hour is what keeps a
 * handful of addresses from filling the database (issue 33: ten addresses at 1 000 a minute
 * reached the cap in minutes; at 1 000 an hour each they need ten hours, while idle apps expire).
 * One guard per process, shared by every surface.
 */
export function createProvisioningGuard(caps: ProvisioningCaps, appResets?: AppResets) {
  // Each address's windows, in the order they are asked: one refused, the next is not counted (a
  // burst refused by the minute costs no hour).
  const windows = [
    {
      window: createFixedWindow(MINUTE_MS),
      limit: caps.autoProvisionPerMinute,
      per: 'a minute',
      setting: 'AUTO_PROVISION_PER_MINUTE',
    },
    {
      window: createFixedWindow(HOUR_MS),
      limit: caps.autoProvisionPerHour,
      per: 'an hour',
      setting: 'AUTO_PROVISION_PER_HOUR',
    },
  ]
  const lastLogged = new Map<string, number>()
  // Counted once from the database, then kept here: a flood beyond the cap must stay cheap. A
  // removed app no longer counts: counted again.
  let apps: number | undefined
  appResets?.onAppReset(() => {
    apps = undefined
  })

  function logNow(kind: string, now: number): boolean {
    const last = lastLogged.get(kind)
    if (last !== undefined && now >= last && now < last + MINUTE_MS) return false
    if (lastLogged.size >= 10_000) lastLogged.clear()
    lastLogged.set(kind, now)
    return true
  }

  return {
    /**
     * Runs `create` (which provisions one app) unless a cap refuses: then throws
     * ProvisioningRefused. `countApps` reads the database the first time only.
     */
    admit(client: string, now: number, countApps: () => number, create: () => void): void {
      apps ??= countApps()
      if (apps >= caps.autoProvisionMaxApps) {
        throw new ProvisioningRefused(
          `the sandbox already holds ${apps} apps, its limit (AUTO_PROVISION_MAX_APPS)`,
          logNow('max-apps', now),
        )
      }
      for (const { window, limit, per, setting } of windows) {
        const rate = window.hit(client, now, limit)
        if (!rate.allowed)
          throw new ProvisioningRefused(
            `${client} may create ${limit} new apps ${per} (${setting}); try again in ${rate.resetSeconds} s`,
            logNow(`client:${client}`, now),
          )
      }
      create()
      apps += 1
    },
  }
}

export type ProvisioningGuard = ReturnType<typeof createProvisioningGuard>
