import type { Db } from './db.js'

export type Bucket = 'voice' | 'industry' | 'market'

/** NULL = no quota allocated (jsms-api.md §2.7). `balance` is the all-type bucket. */
export interface Balances {
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
}

export const NO_BALANCES: Balances = { balance: null, voice: null, industry: null, market: null }

export const toBalances = (r: Balances): Balances => ({
  balance: r.balance,
  voice: r.voice,
  industry: r.industry,
  market: r.market,
})

const BUCKETS = ['balance', 'voice', 'industry', 'market'] as const

/**
 * The balances of apps and developers. They sit in the rows of apps.ts but change with every send,
 * so they are read fresh and never cached: no statement here touches a cached column.
 */
export function createBalanceStore(db: Db) {
  const appBalances = db.prepare<[string], Balances>(
    'SELECT balance, voice, industry, market FROM apps WHERE app_key = ?',
  )
  const devBalances = db.prepare<[string], Balances>(
    'SELECT balance, voice, industry, market FROM developers WHERE dev_key = ?',
  )
  const charge = (table: 'apps' | 'developers', key: 'app_key' | 'dev_key') =>
    Object.fromEntries(
      BUCKETS.map(col => [
        col,
        db.prepare(
          `UPDATE ${table} SET ${col} = ${col} - ? WHERE ${key} = ? AND ${col} IS NOT NULL AND ${col} >= ?`,
        ),
      ]),
    )
  const charges = { app: charge('apps', 'app_key'), dev: charge('developers', 'dev_key') }
  const set = (table: 'apps' | 'developers', key: 'app_key' | 'dev_key') =>
    db.prepare<Balances & { key: string }>(
      `UPDATE ${table} SET balance = @balance, voice = @voice, industry = @industry, market = @market
       WHERE ${key} = @key`,
    )
  const sets = { app: set('apps', 'app_key'), dev: set('developers', 'dev_key') }

  return {
    /** Read fresh: every send changes them. */
    balances(appKey: string): Balances | undefined {
      const row = appBalances.get(appKey)
      return row && toBalances(row)
    },
    developerBalances(devKey: string): Balances | undefined {
      const row = devBalances.get(devKey)
      return row && toBalances(row)
    },
    /** Sets the four buckets (PATCH /_sandbox/app, a reset). */
    setBalances(appKey: string, balances: Balances): void {
      sets.app.run({ ...toBalances(balances), key: appKey })
    },
    setDeveloperBalances(devKey: string, balances: Balances): void {
      sets.dev.run({ ...toBalances(balances), key: devKey })
    },
    /**
     * Takes `units` from the first bucket that has them: the app's own bucket for the kind, the
     * app's all-type bucket, then the same two of its developer account. Returns false when none
     * can pay; a bucket never goes below zero because the check is in the UPDATE itself.
     */
    charge(app: { appKey: string; devKey: string }, bucket: Bucket, units: number): boolean {
      return (
        charges.app[bucket]!.run(units, app.appKey, units).changes === 1 ||
        charges.app.balance!.run(units, app.appKey, units).changes === 1 ||
        charges.dev[bucket]!.run(units, app.devKey, units).changes === 1 ||
        charges.dev.balance!.run(units, app.devKey, units).changes === 1
      )
    },
  }
}
