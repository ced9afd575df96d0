import type { Db } from './db.js'

export type Bucket = 'voice' | 'industry' | 'market'

/** NULL = no quota allocated (jsms-api.md §2.7). `balance` is the all-type bucket. */
export interface Balances {
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
}

export interface Developer {
  devKey: string
  devSecret: string
  frozen: boolean
  balances: Balances
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
  balances: Balances
  createdAt: number
}

export interface NewApp extends Omit<App, 'createdAt'> {}

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
  balances: { balance: r.balance, voice: r.voice, industry: r.industry, market: r.market },
  createdAt: r.created_at,
})

const toDev = (r: DevRow): Developer => ({
  devKey: r.dev_key,
  devSecret: r.dev_secret,
  frozen: r.frozen === 1,
  balances: { balance: r.balance, voice: r.voice, industry: r.industry, market: r.market },
})

export function createAppStore(db: Db) {
  const getApp = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE app_key = ?')
  const getDev = db.prepare<[string], DevRow>('SELECT * FROM developers WHERE dev_key = ?')
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
          `UPDATE apps SET ${col} = ${col} - @units WHERE app_key = @key AND ${col} IS NOT NULL AND ${col} >= @units`,
        ),
      ]),
    ),
    dev: Object.fromEntries(
      (['balance', 'voice', 'industry', 'market'] as const).map(col => [
        col,
        db.prepare(
          `UPDATE developers SET ${col} = ${col} - @units WHERE dev_key = @key AND ${col} IS NOT NULL AND ${col} >= @units`,
        ),
      ]),
    ),
  }

  const appParams = (a: NewApp, createdAt = 0) => ({
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
    ...a.balances,
    createdAt,
  })

  return {
    get(appKey: string): App | undefined {
      const row = getApp.get(appKey)
      return row && toApp(row)
    },
    developer(devKey: string): Developer | undefined {
      const row = getDev.get(devKey)
      return row && toDev(row)
    },
    /** Creates the developer if new; an existing one keeps its balances. */
    saveDeveloper(d: Developer): void {
      upsertDev.run({ devKey: d.devKey, devSecret: d.devSecret, frozen: d.frozen ? 1 : 0, ...d.balances })
    },
    insert(app: NewApp, createdAt: number): void {
      insertApp.run(appParams(app, createdAt))
    },
    /** Replaces the settings (not balances, not the clock) of an existing app. */
    updateSettings(app: NewApp): void {
      updateSettings.run(appParams(app))
    },
    setClockOffset(appKey: string, offsetMs: number): void {
      setOffset.run(offsetMs, appKey)
    },
    /**
     * Takes `units` from the first bucket that has them: the app's own bucket for the kind, the
     * app's all-type bucket, then the same two of its developer account. Returns false when none
     * can pay; a bucket never goes below zero because the check is in the UPDATE itself.
     */
    charge(app: App, bucket: Bucket, units: number): boolean {
      for (const [table, key] of [
        ['app', app.appKey],
        ['dev', app.devKey],
      ] as const) {
        for (const col of [bucket, 'balance'] as const) {
          if (charge[table][col]!.run({ key, units }).changes === 1) return true
        }
      }
      return false
    },
  }
}

export type AppStore = ReturnType<typeof createAppStore>
