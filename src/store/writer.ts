import type { Db } from './db.js'
import type { WalSync } from './wal-sync.js'

/**
 * Group commit. Every write job queued during one turn of the event loop runs in a single SQLite
 * transaction, each job inside its own savepoint (better-sqlite3 turns a nested transaction into
 * a savepoint), and the whole batch is committed, then made durable (wal-sync.ts), before any
 * caller hears back. So a job is on disk before its answer leaves, a job that throws (a vendor
 * error, say) rolls back alone, and the fsync is shared by all the requests that arrived together
 * — and, since it runs off the event loop, by the batches committed while it was running.
 *
 * Jobs run one after another on the event loop, so a check-then-write inside a job (balance,
 * frequency window, once-only code validation, a schedule firing) can never interleave with another.
 */
export interface Writer {
  write<T>(job: () => T): Promise<T>
  /** Runs whatever is queued now, synchronously and durably: for shutdown. */
  flush(): void
}

interface Pending {
  job: () => unknown
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

export function createWriter(db: Db, wal: WalSync): Writer {
  let queue: Pending[] = []
  let scheduled = false

  /** Commits what is queued; returns how to settle the callers once the commit is durable. */
  function commit(): ((syncError: Error | null) => void) | undefined {
    scheduled = false
    if (queue.length === 0) return undefined
    const batch = queue
    queue = []
    const outcomes: Array<{ ok: boolean; value: unknown }> = []
    try {
      db.transaction(() => {
        for (const p of batch) {
          try {
            outcomes.push({ ok: true, value: db.transaction(p.job)() })
          } catch (err) {
            outcomes.push({ ok: false, value: err })
          }
        }
      })()
    } catch (err) {
      // The commit itself failed: nothing of this batch is stored, so nobody may hear "success".
      for (const p of batch) p.reject(err)
      return undefined
    }
    return syncError =>
      batch.forEach((p, i) => {
        const o = outcomes[i]!
        // Committed but perhaps not on disk (EIO): answer a server error rather than claim success.
        if (syncError) p.reject(syncError)
        else if (o.ok) p.resolve(o.value)
        else p.reject(o.value)
      })
  }

  function run(): void {
    const settle = commit()
    if (settle) wal.sync(settle)
  }

  return {
    write<T>(job: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ job, resolve: resolve as (v: unknown) => void, reject })
        if (!scheduled) {
          scheduled = true
          setImmediate(run)
        }
      })
    },
    flush() {
      const settle = commit()
      wal.syncNow()
      settle?.(null)
    },
  }
}
