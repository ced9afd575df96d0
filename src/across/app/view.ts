import { setImmediate as turn } from 'node:timers/promises'
import { z } from 'zod'
import type { AppResets } from '../../app-resets.js'
import type { Clock } from '../../clock.js'
import { appNow } from '../../clock.js'
import type { Config } from '../../config.js'
import type { ApiError } from '../../errors.js'
import type { AppGate } from '../../http/app-gate.js'
import { broadcastLimitOf, rateLimitOf } from '../../push/limits.js'
import { strictTypesOf } from '../../push/send/index.js'
import type { Balances } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'

// The calling app as GET /_sandbox/app shows it: the keys of an `apps[]` entry of the seed file
// (README "Seed file"), with the limits in force (defaults filled in), plus its developer and
// its clock.

const quota = z.number().nullable()
const balances = z.object({ balance: quota, voice: quota, industry: quota, market: quota })
const groups = z.record(z.string(), z.array(z.string()))

export const appView = z.object({
  app_key: z.string(),
  blacklisted: z.boolean(),
  sms_enabled: z.boolean(),
  ip_whitelist: z.array(z.string()),
  sensitive_words: z.array(z.string()),
  unsubscribed: z.array(z.string()),
  callback_url: z.string().nullable(),
  balances,
  settings: z.object({
    rate_limits: z.object({ push: z.number(), device: z.number(), report: z.number() }),
    broadcasts_per_day: z.number(),
    segments: groups,
    abtests: groups,
    push: z.object({
      strict_types: z
        .boolean()
        .describe(
          'Numbers and booleans sent as strings are refused (1003) instead of read as Jackson reads them.',
        ),
    }),
  }),
  developer: z.object({ dev_key: z.string(), dev_secret: z.string(), frozen: z.boolean(), balances }),
  clock: z.object({ now: z.number(), offset_ms: z.number() }),
})

export type AppView = z.input<typeof appView>

/**
 * The app's share of the disk (issue 19), shown by GET /_sandbox/app: its rows per table, an
 * estimate of their bytes, and the caps that bound the two that grow with use.
 */
export const storageView = z.object({
  rows: z
    .record(z.string(), z.number())
    .describe(
      "The app's rows in each table, counted a page at a time between other requests: a row written or removed while the count runs may or may not be in it.",
    ),
  approx_bytes: z
    .number()
    .describe(
      'An estimate of what the rows take in the database file, indexes included (rows × measured bytes per row).',
    ),
  limits: z.object({
    devices: z.number().describe('MAX_DEVICES_PER_APP: registrations beyond are refused (409 90056).'),
    push_deliveries: z
      .number()
      .describe(
        "PUSH_DELIVERIES_KEPT_PER_APP: beyond, the app's oldest pushes are forgotten, deliveries first.",
      ),
  }),
})

/**
 * Bytes per row in the database file, indexes included, measured (docs/reliability.md): a device
 * with two tags, a delivery, a message with its code and report. Other tables: a few hundred bytes.
 */
const ROW_BYTES: Record<string, number> = {
  push_devices: 320,
  push_device_tags: 50,
  push_device_sessions: 80,
  push_deliveries: 280,
  messages: 300,
  reports: 150,
  codes: 100,
}
const OTHER_ROW_BYTES = 200

type StorageDeps = {
  store: Store
  config: Pick<Config, 'maxDevicesPerApp' | 'pushDeliveriesKept'>
  appResets: AppResets
  appGate: Pick<AppGate, 'isClosed' | 'opened'>
}

/**
 * GET /_sandbox/app/storage's answer, counted without holding the other apps: the app's rows a
 * bounded step at a time (store/apps/app-rows.ts: `counting`), a turn of the event loop between
 * steps, so one app's size never delays another's requests by more than a step (0.3 ms measured; issue 32,
 * docs/reliability.md "A tenant's share"). What happens to the app meanwhile:
 * - reset (POST /_sandbox/reset, or DELETE of an app that comes back): the count starts again, so
 *   the answer never mixes the rows before the reset with those after it;
 * - replaced by an import (its gate closed: http/app-gate.ts): the count waits for the import to
 *   end, then starts again;
 * - removed for good: `gone()` is thrown (the route's 401 90002, or 404 90048 for the operator),
 *   as for any request of an app removed by a request in between.
 * A count started after a write sees it: rows are counted as they stand when their page is read.
 */
export function storageCounter(deps: StorageDeps) {
  // The counts in progress, per app: a reset marks them stale.
  const running = new Map<string, Set<{ stale: boolean }>>()
  deps.appResets.onAppReset(appKey => {
    for (const count of running.get(appKey) ?? []) count.stale = true
  })

  async function countRows(appKey: string, count: { stale: boolean }, gone: () => ApiError) {
    const { store, appGate } = deps
    let steps = store.appRows.counting(appKey)
    for (;;) {
      const step = steps.next()
      if (step.done) return step.value
      await turn()
      if (appGate.isClosed(appKey)) {
        await appGate.opened(appKey)
        count.stale = true
      }
      if (!store.apps.get(appKey)) throw gone()
      if (count.stale) {
        count.stale = false
        steps = store.appRows.counting(appKey)
      }
    }
  }

  return async function describeStorage(
    appKey: string,
    gone: () => ApiError,
  ): Promise<z.input<typeof storageView>> {
    const count = { stale: false }
    const counts = running.get(appKey) ?? new Set()
    running.set(appKey, counts)
    counts.add(count)
    let rows: Record<string, number>
    try {
      rows = await countRows(appKey, count, gone)
    } finally {
      counts.delete(count)
      if (counts.size === 0) running.delete(appKey)
    }
    let bytes = 0
    for (const [table, n] of Object.entries(rows)) bytes += n * (ROW_BYTES[table] ?? OTHER_ROW_BYTES)
    return {
      rows,
      approx_bytes: bytes,
      limits: { devices: deps.config.maxDevicesPerApp, push_deliveries: deps.config.pushDeliveriesKept },
    }
  }
}

const NONE: Balances = { balance: null, voice: null, industry: null, market: null }
const groupsOf = (value: unknown) => (value ?? {}) as Record<string, string[]>

/** The app's settings, balances, developer and clock as they stand; undefined once it is gone. */
export function describeApp(deps: { store: Store; clock: Clock }, appKey: string): AppView | undefined {
  const { store } = deps
  const app = store.apps.get(appKey)
  if (!app) return undefined
  const developer = store.apps.developer(app.devKey)
  return {
    app_key: app.appKey,
    blacklisted: app.blacklisted,
    sms_enabled: app.smsEnabled,
    ip_whitelist: app.ipWhitelist,
    sensitive_words: app.sensitiveWords,
    unsubscribed: store.unsubscribed.list(appKey),
    callback_url: app.callbackUrl,
    balances: store.apps.balances(appKey) ?? NONE,
    settings: {
      rate_limits: {
        push: rateLimitOf(app, 'push'),
        device: rateLimitOf(app, 'device'),
        report: rateLimitOf(app, 'report'),
      },
      broadcasts_per_day: broadcastLimitOf(app),
      segments: groupsOf(app.settings.segments),
      abtests: groupsOf(app.settings.abtests),
      push: { strict_types: strictTypesOf(app.settings) },
    },
    developer: {
      dev_key: app.devKey,
      dev_secret: developer?.devSecret ?? '',
      frozen: developer?.frozen ?? false,
      balances: store.apps.developerBalances(app.devKey) ?? NONE,
    },
    clock: { now: appNow(deps.clock, app), offset_ms: app.clockOffsetMs },
  }
}

/**
 * The app as its `app.changed` and `app.reset` events carry it: as GET shows it, without the
 * developer's secret. An event reaches whoever holds a stream token (10 minutes), the web UI and
 * every export of the app (a CI artifact): no secret goes there (issue 33).
 */
export function appEventData(deps: { store: Store; clock: Clock }, appKey: string) {
  const shown = describeApp(deps, appKey)
  if (!shown) return undefined
  const { dev_secret: _, ...developer } = shown.developer
  return { ...shown, developer }
}
