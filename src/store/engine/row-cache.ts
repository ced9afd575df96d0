import type { Db } from './db.js'
import { type Effect, type Params, prepareRead, prepareWrite } from './statements.js'
import type { UndoJournal } from './undo.js'

// Committed rows kept in memory, for the reads every request makes (the app and its developer for
// Basic auth, the template and signature of a send, whether a review is due): a primary-key
// SELECT still costs a read transaction in SQLite, several µs each (docs/performance.md). Sound
// because every write goes through src/store on the one connection, and a module that caches rows
// prepares every statement through `cachedStatements`: a statement that writes names the key it
// makes stale and forgets it each time it runs, a read cannot write. A value read inside a
// transaction is never remembered (it may be uncommitted, then rolled back); a write forgets
// before it runs, so a rollback leaves nothing stale behind. Values are frozen: callers share them.

/** Bounded: thousands of auto-provisioned CI apps must not grow the process without end. */
const LIMIT = 10_000

// The caches keyed by appKey, per database: a statement that deletes an app's rows in every table
// (app-rows.ts) forgets the app in all of them, including those of modules written later.
const appKeyed = new WeakMap<Db, Set<{ forget(appKey: string): void }>>()

function keyedByApp(db: Db, cache: { forget(appKey: string): void }): void {
  const caches = appKeyed.get(db) ?? new Set()
  caches.add(cache)
  appKeyed.set(db, caches)
}

/** Forgets everything cached of one app (its row, its templates and signatures…). */
export function forgetApp(db: Db, appKey: string): void {
  for (const cache of appKeyed.get(db) ?? []) cache.forget(appKey)
}

/** One value per key (an app, a developer). */
export interface RowCache<K, V> {
  get(key: K): V | undefined
  /**
   * Remembers a value just read from (or written to) the database; returns it. Inside a
   * transaction only with a `journal`, which forgets it again if the transaction rolls back.
   */
  remember(key: K, value: V): V
  forget(key: K): void
}

/**
 * `perApp`: the keys are appKeys, and `forgetApp` forgets them too. `journal`: values read or
 * written inside a store transaction are remembered too, and forgotten if it rolls back (undo.ts);
 * for values every write job touches (balances), which would otherwise never be remembered.
 */
export function createRowCache<K, V extends object>(
  db: Db,
  { perApp = false, journal }: { perApp?: boolean; journal?: UndoJournal } = {},
): RowCache<K, V> {
  const map = new Map<K, V>()
  const cache: RowCache<K, V> = {
    get: key => map.get(key),
    remember(key, value) {
      deepFreeze(value)
      if (db.inTransaction) {
        if (!journal?.active) return value
        journal.record(() => map.delete(key))
      }
      if (map.size >= LIMIT) map.clear()
      map.set(key, value)
      return value
    },
    forget(key) {
      map.delete(key)
    },
  }
  if (perApp) keyedByApp(db, cache as unknown as { forget(appKey: string): void })
  return cache
}

/**
 * Several reads per app (each template by id, the default signature, the next review due),
 * forgotten together by any write to that app's rows: a write to one signature can change which
 * one is the default.
 */
export interface AppMemo {
  read<S extends number | string, T>(appKey: string, slot: S, load: (appKey: string, slot: S) => T): T
  forget(appKey: string): void
}

export function createAppMemo(db: Db): AppMemo {
  const apps = new Map<string, Map<number | string, unknown>>()
  const memo: AppMemo = {
    read(appKey, slot, load) {
      const memo = apps.get(appKey)
      if (memo?.has(slot)) return memo.get(slot) as ReturnType<typeof load>
      const value = load(appKey, slot)
      if (value !== null && typeof value === 'object') deepFreeze(value)
      if (db.inTransaction) return value
      if (memo) memo.set(slot, value)
      else {
        if (apps.size >= LIMIT) apps.clear()
        apps.set(appKey, new Map([[slot, value]]))
      }
      return value
    },
    forget(appKey) {
      apps.delete(appKey)
    },
  }
  keyedByApp(db, memo)
  return memo
}

/** Several caches as one, for statements whose rows more than one cache holds (a developer's row). */
export function cachesOf<K>(...caches: Array<{ forget(key: K): void }>): { forget(key: K): void } {
  return {
    forget(key) {
      for (const cache of caches) cache.forget(key)
    },
  }
}

/**
 * How a module whose rows are cached prepares its statements (test/store/caches.test.ts checks
 * that such modules prepare nothing else). `read` refuses a statement that writes; `write` takes
 * the key of the cached value the statement changes and forgets it whenever the statement runs.
 */
export function cachedStatements<K>(db: Db, cache: { forget(key: K): void }) {
  return {
    read: <P extends unknown[] | object = unknown[], R = unknown>(source: string) =>
      prepareRead<P, R>(db, source),
    write: <P extends unknown[] | object = unknown[], R = unknown>(
      source: string,
      keyOf: (...params: Params<P>) => K,
      ...effects: Effect<P>[]
    ) => prepareWrite<P, R>(db, source, (...params) => cache.forget(keyOf(...params)), ...effects),
  }
}

export type CachedStatements<K> = ReturnType<typeof cachedStatements<K>>

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return
  Object.freeze(value)
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') deepFreeze(v)
}
