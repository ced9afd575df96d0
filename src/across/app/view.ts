import { z } from 'zod'
import type { Clock } from '../../clock.js'
import { appNow } from '../../clock.js'
import type { Config } from '../../config.js'
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
  rows: z.record(z.string(), z.number()).describe("The app's rows in each table."),
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

export function describeStorage(
  deps: { store: Store; config: Pick<Config, 'maxDevicesPerApp' | 'pushDeliveriesKept'> },
  appKey: string,
): z.input<typeof storageView> {
  const rows = deps.store.appRows.count(appKey)
  let bytes = 0
  for (const [table, n] of Object.entries(rows)) bytes += n * (ROW_BYTES[table] ?? OTHER_ROW_BYTES)
  return {
    rows,
    approx_bytes: bytes,
    limits: { devices: deps.config.maxDevicesPerApp, push_deliveries: deps.config.pushDeliveriesKept },
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
