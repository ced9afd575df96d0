import type { Db } from './db.js'
import type { UndoJournal } from './undo.js'

// Committed rows kept in memory, for the reads every request makes (the app and its developer for
// Basic auth, the template and signature of a send, whether a review is due): a primary-key
// SELECT still costs a read transaction in SQLite, several µs each (docs/performance.md). Sound
// because every write goes through src/store on the one connection (one process per file: db.ts),
// and every statement that writes a cached row forgets it right after it runs, declared beside its
// SQL (statements.ts: `writes`; test/store/caches.test.ts drives each such method). A value read inside a
// transaction is not remembered (it may be uncommitted, then rolled back), except by a journaled
// cache, whose undo journal forgets it again if the transaction rolls back. A write that rolls
// back after its forget leaves nothing stale: the next read asks SQLite. Values are frozen:
// callers share them.

/** Bounded: thousands of auto-provisioned CI apps must not grow the process without end. */
const LIMIT = 10_000

/** One value per key (an app, a developer). */
export interface RowCache<K, V> {
  get(key: K): V | undefined
  /**
   * Remembers a value just read from (or written to) the database; returns it. Inside a
   * transaction only when journaled, and then forgotten again if the transaction rolls back.
   */
  remember(key: K, value: V): V
  forget(key: K): void
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

/** The engine's caches: each made here, and every one keyed by app forgotten by `forgetApp`. */
export function createCaches(db: Db, journal: UndoJournal) {
  const keyedByApp = new Set<{ forget(appKey: string): void }>()

  return {
    /**
     * `perApp`: the keys are appKeys, and `forgetApp` forgets them too. `journaled`: values read
     * or written inside a write job are remembered too, and forgotten if it rolls back (undo.ts);
     * for values every write job touches (balances), which would otherwise never be remembered.
     */
    rows<K, V extends object>({ perApp = false, journaled = false } = {}): RowCache<K, V> {
      const map = new Map<K, V>()
      const cache: RowCache<K, V> = {
        get: key => map.get(key),
        remember(key, value) {
          deepFreeze(value)
          if (db.inTransaction) {
            if (!journaled || !journal.active) return value
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
      if (perApp) keyedByApp.add(cache as unknown as { forget(appKey: string): void })
      return cache
    },
    /** Several values per app, forgotten together (AppMemo); `forgetApp` forgets them too. */
    perApp(): AppMemo {
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
      keyedByApp.add(memo)
      return memo
    },
    /** Forgets everything cached of one app (its row, its templates and signatures…). */
    forgetApp(appKey: string): void {
      for (const cache of keyedByApp) cache.forget(appKey)
    },
  }
}

export type Caches = ReturnType<typeof createCaches>

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return
  Object.freeze(value)
  for (const v of Object.values(value)) if (v !== null && typeof v === 'object') deepFreeze(v)
}
