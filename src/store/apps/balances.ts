import type { Engine } from '../engine/index.js'
import type { WriteStatement } from '../engine/statements.js'

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
type Column = (typeof BUCKETS)[number]

/**
 * The balances of apps and developers, held in memory: `GET /v1/accounts/app` reads them on every
 * call, and a send changes them. They sit in the rows of apps and developers, but apart from the
 * cached settings (apps.ts), because every send writes them. Each is read from SQLite once, then
 * kept; a charge writes the row in the send's own write job and the new value in memory right
 * after the statement, so memory and SQLite never disagree outside a job, and a job that rolls
 * back takes the memory back with it (a journaled cache: engine/caches.ts, undo.ts). Every statement
 * that writes the columns forgets the value (declared with it: engine/statements.ts); a charge that
 * went through then remembers what it wrote.
 */
export function createBalanceStore({ db, caches: engineCaches, writes }: Engine) {
  const caches = {
    app: engineCaches.rows<string, Balances>({ perApp: true, journaled: true }),
    dev: engineCaches.rows<string, Balances>({ journaled: true }),
  }
  const read = {
    app: db.prepare<[string], Balances>(
      'SELECT balance, voice, industry, market FROM apps WHERE app_key = ?',
    ),
    dev: db.prepare<[string], Balances>(
      'SELECT balance, voice, industry, market FROM developers WHERE dev_key = ?',
    ),
  }
  type Take = [units: number, key: string, atLeast: number]
  // The bound check stays in the UPDATE: a bucket never goes below zero, whatever memory says.
  const take = (owner: 'app' | 'dev', table: 'apps' | 'developers', key: 'app_key' | 'dev_key') =>
    Object.fromEntries(
      BUCKETS.map(col => [
        col,
        writes<Take>(
          `UPDATE ${table} SET ${col} = ${col} - ? WHERE ${key} = ? AND ${col} IS NOT NULL AND ${col} >= ?`,
          { key: ([, key]) => key, forgets: [caches[owner]] },
        ),
      ]),
    ) as Record<Column, WriteStatement<Take>>
  const takes = { app: take('app', 'apps', 'app_key'), dev: take('dev', 'developers', 'dev_key') }
  const set = (owner: 'app' | 'dev', table: 'apps' | 'developers', key: 'app_key' | 'dev_key') =>
    writes<Balances & { key: string }>(
      `UPDATE ${table} SET balance = @balance, voice = @voice, industry = @industry, market = @market
       WHERE ${key} = @key`,
      { key: b => b.key, forgets: [caches[owner]] },
    )
  const sets = { app: set('app', 'apps', 'app_key'), dev: set('dev', 'developers', 'dev_key') }

  function balancesOf(owner: 'app' | 'dev', key: string): Balances | undefined {
    const hit = caches[owner].get(key)
    if (hit) return hit
    const row = read[owner].get(key)
    return row && caches[owner].remember(key, toBalances(row))
  }

  /** Takes `units` from one bucket if it holds them; the new value is remembered. */
  function tryTake(owner: 'app' | 'dev', key: string, col: Column, units: number): boolean {
    const b = balancesOf(owner, key)
    const left = b?.[col]
    if (b === undefined || left === null || left === undefined || left < units) return false
    // The statement forgets the value: memory said enough, and the row may not have (read it again).
    if (takes[owner][col].run([units, key, units]).changes !== 1) return false
    caches[owner].remember(key, { ...b, [col]: left - units })
    return true
  }

  return {
    /**
     * Forgets a developer's balances, for developers.ts, whose methods write its row (a developer
     * removed, then made again with new balances).
     */
    forgetDeveloper(devKey: string): void {
      caches.dev.forget(devKey)
    },
    /** The app's balances, from memory (read from SQLite the first time). Frozen, shared. */
    balances(appKey: string): Balances | undefined {
      return balancesOf('app', appKey)
    },
    developerBalances(devKey: string): Balances | undefined {
      return balancesOf('dev', devKey)
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
     * can pay. Call it inside a write job: one UPDATE, its value then kept in memory.
     */
    charge(app: { appKey: string; devKey: string }, bucket: Bucket, units: number): boolean {
      return (
        tryTake('app', app.appKey, bucket, units) ||
        tryTake('app', app.appKey, 'balance', units) ||
        tryTake('dev', app.devKey, bucket, units) ||
        tryTake('dev', app.devKey, 'balance', units)
      )
    },
  }
}
