import type { Db } from './db.js'
import { createRowCache } from './row-cache.js'

export type Bucket = 'voice' | 'industry' | 'market'

/** NULL = no quota allocated (jsms-api.md §2.7). `balance` is the all-type bucket. */
export interface Balances {
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
}

/** Credentials and standing only: balances change with every send, so they are read apart. */
export interface Developer {
  devKey: string
  devSecret: string
  frozen: boolean
}

export interface App {
  appKey: string
  masterSecret: string
  devKey: string
  blacklisted: boolean
  smsEnabled: boolean
  ipWhitelist: string[]
  sensitiveWords: string[]
  callbackUrl: string | null
  settings: Record<string, unknown>
  clockOffsetMs: number
  createdAt: number
}

/** What an app is created with: its settings and its initial balances. */
export interface NewApp extends Omit<App, 'createdAt'> {
  balances: Balances
}

interface AppRow {
  app_key: string
  master_secret: string
  dev_key: string
  blacklisted: number
  sms_enabled: number
  ip_whitelist: string
  sensitive_words: string
  callback_url: string | null
  settings: string
  clock_offset_ms: number
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
  created_at: number
}

interface DevRow {
  dev_key: string
  dev_secret: string
  frozen: number
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
}

const toApp = (r: AppRow): App => ({
  appKey: r.app_key,
  masterSecret: r.master_secret,
  devKey: r.dev_key,
  blacklisted: r.blacklisted === 1,
  smsEnabled: r.sms_enabled === 1,
  ipWhitelist: JSON.parse(r.ip_whitelist),
  sensitiveWords: JSON.parse(r.sensitive_words),
  callbackUrl: r.callback_url,
  settings: JSON.parse(r.settings),
  clockOffsetMs: r.clock_offset_ms,
  createdAt: r.created_at,
})

const toDev = (r: DevRow): Developer => ({
  devKey: r.dev_key,
  devSecret: r.dev_secret,
  frozen: r.frozen === 1,
})

const toBalances = (r: Balances): Balances => ({
  balance: r.balance,
  voice: r.voice,
  industry: r.industry,
  market: r.market,
})

const NO_BALANCES: Balances = { balance: null, voice: null, industry: null, market: null }

export function createAppStore(db: Db) {
  const getApp = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE app_key = ?')
  const getDev = db.prepare<[string], DevRow>('SELECT * FROM developers WHERE dev_key = ?')
  const countApps = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM apps')
  const appBalances = db.prepare<[string], Balances>(
    'SELECT balance, voice, industry, market FROM apps WHERE app_key = ?',
  )
  const devBalances = db.prepare<[string], Balances>(
    'SELECT balance, voice, industry, market FROM developers WHERE dev_key = ?',
  )
  // Read on every request (Basic auth, standing); changed only through the methods below.
  const apps = createRowCache<string, App>(db)
  const developers = createRowCache<string, Developer>(db)
  const insertApp = db.prepare(
    `INSERT INTO apps (app_key, master_secret, dev_key, blacklisted, sms_enabled, ip_whitelist,
       sensitive_words, callback_url, settings, clock_offset_ms, balance, voice, industry, market, created_at)
     VALUES (@appKey, @masterSecret, @devKey, @blacklisted, @smsEnabled, @ipWhitelist, @sensitiveWords,
       @callbackUrl, @settings, @clockOffsetMs, @balance, @voice, @industry, @market, @createdAt)`,
  )
  const upsertDev = db.prepare(
    `INSERT INTO developers (dev_key, dev_secret, frozen, balance, voice, industry, market)
     VALUES (@devKey, @devSecret, @frozen, @balance, @voice, @industry, @market)
     ON CONFLICT (dev_key) DO UPDATE SET dev_secret = excluded.dev_secret, frozen = excluded.frozen`,
  )
  const updateSettings = db.prepare(
    `UPDATE apps SET master_secret = @masterSecret, dev_key = @devKey, blacklisted = @blacklisted,
       sms_enabled = @smsEnabled, ip_whitelist = @ipWhitelist, sensitive_words = @sensitiveWords,
       callback_url = @callbackUrl, settings = @settings WHERE app_key = @appKey`,
  )
  const setOffset = db.prepare('UPDATE apps SET clock_offset_ms = ? WHERE app_key = ?')
  const charge = {
    app: Object.fromEntries(
      (['balance', 'voice', 'industry', 'market'] as const).map(col => [
        col,
        db.prepare(
          `UPDATE apps SET ${col} = ${col} - ? WHERE app_key = ? AND ${col} IS NOT NULL AND ${col} >= ?`,
        ),
      ]),
    ),
    dev: Object.fromEntries(
      (['balance', 'voice', 'industry', 'market'] as const).map(col => [
        col,
        db.prepare(
          `UPDATE developers SET ${col} = ${col} - ? WHERE dev_key = ? AND ${col} IS NOT NULL AND ${col} >= ?`,
        ),
      ]),
    ),
  }

  const appParams = (a: Omit<App, 'createdAt'>, balances: Balances = NO_BALANCES, createdAt = 0) => ({
    appKey: a.appKey,
    masterSecret: a.masterSecret,
    devKey: a.devKey,
    blacklisted: a.blacklisted ? 1 : 0,
    smsEnabled: a.smsEnabled ? 1 : 0,
    ipWhitelist: JSON.stringify(a.ipWhitelist),
    sensitiveWords: JSON.stringify(a.sensitiveWords),
    callbackUrl: a.callbackUrl,
    settings: JSON.stringify(a.settings),
    clockOffsetMs: a.clockOffsetMs,
    ...toBalances(balances),
    createdAt,
  })

  return {
    /** The app's settings and credentials (frozen, shared); its balances: `balances()`. */
    get(appKey: string): App | undefined {
      const hit = apps.get(appKey)
      if (hit) return hit
      const row = getApp.get(appKey)
      return row && apps.remember(appKey, toApp(row))
    },
    developer(devKey: string): Developer | undefined {
      const hit = developers.get(devKey)
      if (hit) return hit
      const row = getDev.get(devKey)
      return row && developers.remember(devKey, toDev(row))
    },
    /** How many apps the database holds (the default, the seed file's, the auto-provisioned). */
    count(): number {
      return countApps.get()?.n ?? 0
    },
    /** Read fresh: every send changes them. */
    balances(appKey: string): Balances | undefined {
      const row = appBalances.get(appKey)
      return row && toBalances(row)
    },
    developerBalances(devKey: string): Balances | undefined {
      const row = devBalances.get(devKey)
      return row && toBalances(row)
    },
    /** Creates the developer if new (with `balances`); an existing one keeps its balances. */
    saveDeveloper(d: Developer & { balances?: Balances }): void {
      developers.forget(d.devKey)
      upsertDev.run({
        devKey: d.devKey,
        devSecret: d.devSecret,
        frozen: d.frozen ? 1 : 0,
        ...toBalances(d.balances ?? NO_BALANCES),
      })
    },
    insert(app: NewApp, createdAt: number): void {
      apps.forget(app.appKey)
      insertApp.run(appParams(app, app.balances, createdAt))
    },
    /** Replaces the settings (not balances, not the clock) of an existing app. */
    updateSettings(app: Omit<App, 'createdAt'>): void {
      apps.forget(app.appKey)
      updateSettings.run(appParams(app))
    },
    setClockOffset(appKey: string, offsetMs: number): void {
      apps.forget(appKey)
      setOffset.run(offsetMs, appKey)
    },
    /**
     * Takes `units` from the first bucket that has them: the app's own bucket for the kind, the
     * app's all-type bucket, then the same two of its developer account. Returns false when none
     * can pay; a bucket never goes below zero because the check is in the UPDATE itself.
     */
    charge(app: Pick<App, 'appKey' | 'devKey'>, bucket: Bucket, units: number): boolean {
      return (
        charge.app[bucket]!.run(units, app.appKey, units).changes === 1 ||
        charge.app.balance!.run(units, app.appKey, units).changes === 1 ||
        charge.dev[bucket]!.run(units, app.devKey, units).changes === 1 ||
        charge.dev.balance!.run(units, app.devKey, units).changes === 1
      )
    },
  }
}
