import type { Engine } from '../engine/index.js'
import { type Balances, NO_BALANCES, toBalances } from './balances.js'

export type { Balances, Bucket } from './balances.js'
export type { Developer } from './developers.js'

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
  created_at: number
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

/**
 * Apps: read on every request (Basic auth, standing), so cached (engine/caches.ts); every statement
 * that changes them forgets the cached copy (declared with it: engine/statements.ts). Balances live in the same rows but change with every
 * send: they are held apart (balances.ts).
 */
export function createAppStore({ db, caches, writes }: Engine, activity: { created(appKey: string): void }) {
  const apps = caches.rows<string, App>({ perApp: true })
  const getApp = db.prepare<[string], AppRow>('SELECT * FROM apps WHERE app_key = ?')
  const countApps = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM apps')
  const countUsers = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM apps WHERE dev_key = ? AND app_key <> ?',
  )
  const insertApp = writes<ReturnType<typeof appParams>>(
    `INSERT INTO apps (app_key, master_secret, dev_key, blacklisted, sms_enabled, ip_whitelist,
       sensitive_words, callback_url, settings, clock_offset_ms, balance, voice, industry, market, created_at)
     VALUES (@appKey, @masterSecret, @devKey, @blacklisted, @smsEnabled, @ipWhitelist, @sensitiveWords,
       @callbackUrl, @settings, @clockOffsetMs, @balance, @voice, @industry, @market, @createdAt)`,
    { forgets: [apps] },
  )
  const updateSettings = writes<ReturnType<typeof appParams>>(
    `UPDATE apps SET master_secret = @masterSecret, dev_key = @devKey, blacklisted = @blacklisted,
       sms_enabled = @smsEnabled, ip_whitelist = @ipWhitelist, sensitive_words = @sensitiveWords,
       callback_url = @callbackUrl, settings = @settings WHERE app_key = @appKey`,
    { forgets: [apps] },
  )
  // The app's due times now map to other process times (engine/due.ts): every bound is asked again.
  const setOffset = writes<{ appKey: string; offsetMs: number }>(
    'UPDATE apps SET clock_offset_ms = @offsetMs WHERE app_key = @appKey',
    { forgets: [apps], remaps: true },
  )

  return {
    /** The app's settings and credentials (frozen, shared); its balances: `balances()`. */
    get(appKey: string): App | undefined {
      const hit = apps.get(appKey)
      if (hit) return hit
      const row = getApp.get(appKey)
      return row && apps.remember(appKey, toApp(row))
    },
    /** How many apps the database holds (the default, the seed file's, the auto-provisioned). */
    count(): number {
      return countApps.get()?.n ?? 0
    },
    /** How many apps other than `appKey` have `devKey` as their developer. */
    otherUsersOf(devKey: string, appKey: string): number {
      return countUsers.get(devKey, appKey)?.n ?? 0
    },
    insert(app: NewApp, createdAt: number): void {
      insertApp.run(appParams(app, app.balances, createdAt))
      activity.created(app.appKey)
    },
    /** Replaces the settings (not balances, not the clock) of an existing app. */
    updateSettings(app: Omit<App, 'createdAt'>): void {
      updateSettings.run(appParams(app))
    },
    setClockOffset(appKey: string, offsetMs: number): void {
      setOffset.run({ appKey, offsetMs })
    },
  }
}
