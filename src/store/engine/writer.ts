import { closeSync, fsync, fsyncSync, openSync } from 'node:fs'
import type { Db } from './db.js'
import type { StoreHealth } from './health.js'
import type { Seqs } from './item-seqs.js'
import { createUndoJournal, type UndoJournal } from './undo.js'

/**
 * What a write job declares beside it (the counterpart of a statement's `writes(sql, touches)`):
 * the event types it may announce on the event log (store/events/log.ts). Appending any other
 * throws, so the job fails alone and its change with it (writer: rolled back): an event exists
 * exactly when a job that says so made it. A constant beside the job, or the due-work entry the job
 * belongs to (its `announces`): `store.write({ announces: ['code.verified'] }, () => …)`.
 */
export interface Declared {
  announces?: readonly string[] | undefined
}

/** A job appended an event type it did not list (`Declared`): a bug of the code, not of the request. */
export class UnlistedEvent extends Error {
  constructor(
    readonly type: string,
    listed: readonly string[],
  ) {
    super(
      `a write job appended a ${type} event it does not list: declare it, store.write({ announces: [${[...listed, type].map(t => `'${t}'`).join(', ')}] }, job)`,
    )
    this.name = 'UnlistedEvent'
  }
}

/**
 * Group commit. Every write job queued since the last commit (during one turn of the event loop,
 * or while the last commit's fsync ran) runs in a single SQLite transaction, each job inside its
 * own savepoint (better-sqlite3 turns a nested transaction into a savepoint), and the whole batch
 * is committed, then made durable (the WAL's fsync, below), before any caller hears back. So a job
 * is on disk before its answer leaves, a job that throws (a vendor error, say) rolls back alone,
 * and one fsync is shared by all the requests that arrived together. The fsync runs off the event
 * loop, which keeps parsing and queueing requests meanwhile.
 *
 * Jobs run one after another on the event loop, so a check-then-write inside a job (balance,
 * frequency window, once-only code validation, a schedule firing) can never interleave with another.
 *
 * Before each commit the store's health monitor may refuse the whole batch (the file at DB_PATH
 * is gone or damaged: health.ts); what a job, the commit and the fsync throw goes back to it.
 *
 * Once a commit is durable, and only then, the apps it gave new seqs to are told to whoever waits
 * for them (item-seqs.ts): a waiter or an event stream never sees what a crash could still undo.
 *
 * No job has a savepoint of its own unless it needs one. A savepoint makes SQLite copy every page
 * the job touches into its sub-journal, a few µs per send (docs/performance.md), and almost every
 * job refuses, if it refuses, before its first write (a send's checks all come before it stores
 * anything): so each job runs bare, and one that throws before it wrote fails alone, with nothing
 * to roll back. Should a job throw after it wrote (SQLite failing half-way, a control-plane write
 * that checks a cap after its statement), the whole batch is rolled back and run again, each job
 * in its savepoint: every outcome is the one a savepoint per job gives, and the jobs before it run
 * twice (their first run rolled back, memory included: undo.ts). Whether a job wrote is SQLite's
 * own count of the rows changed on the connection (`total_changes()`), read before the job and
 * again if it throws (a statement that fails is rolled back by SQLite and counts nothing), or
 * SQLite having ended the transaction itself (SQLITE_FULL and I/O errors may). The writer decides
 * this alone: a feature never says whether its job needs a savepoint.
 */
export interface Writer {
  write<T>(job: () => T): Promise<T>
  /** A job that may announce what it declares: `write({ announces: ['code.verified'] }, job)`. */
  write<T>(declared: Declared, job: () => T): Promise<T>
  /**
   * A job nobody waits for (the request journal's entries, written after their answers): it rides
   * with a commit the other jobs make, running first in that batch: the next one on a quiet writer
   * (RIDE_ALONG_BELOW), the first one after RIDE_MS on a busy one; idle, it commits on its own
   * after RIDE_MS. `hurry()` ends the wait at once.
   */
  ride<T>(job: () => T): Promise<T>
  ride<T>(declared: Declared, job: () => T): Promise<T>
  /** What rides is committed now (a read that must see it). */
  hurry(): void
  /** Runs whatever is queued now, synchronously and durably: for shutdown. */
  flush(): void
  /**
   * A synchronous transaction, for rare writes outside the request path; durable when it returns
   * (a blocking fsync). Nested inside a write job it is just a savepoint.
   */
  transaction<T>(fn: () => T): T
  /** Inside a job, what it declares adds to the job's (a helper that announces, in a savepoint). */
  transaction<T>(declared: Declared, fn: () => T): T
  /**
   * Throws UnlistedEvent unless the job running now (or a `transaction` it is inside) lists
   * `type`: the event log asks it before each append.
   */
  assertListed(type: string): void
  /** Lets go of the WAL's descriptor (once an fsync in flight returned). */
  close(): void
  /**
   * Jobs committed so far (whatever their outcome): background work (a push's slices) reads it
   * between its own jobs to tell whether others are writing meanwhile.
   */
  committed(): number
}

interface Pending {
  job: () => unknown
  /** What the job declared it announces (none: it announces nothing). */
  announces: readonly string[] | undefined
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

/**
 * How long a riding job waits for a commit it can join, or, on a busy writer, before it joins one.
 * A commit of its own after every answer made a second fsync per batch of sends: half the batch,
 * ≈ twice the CPU per send. Joining every commit of a busy writer made each one carry a few rows
 * of the journal, and rewrite the same pages of its table and index for them (≈ 9 more pages in a
 * commit of 24 sends); waiting this long gathers the rows of every commit made meanwhile into one
 * (docs/performance.md). Idle, the rider's write is this late at most.
 */
export const RIDE_MS = 50

/**
 * While the recent commits carried fewer jobs than this on average, the riders join the next
 * commit: a client calling one request after another (a test) finds each request's journal entry
 * right after what the request did (its seq, its `request.completed` on the event stream). A busier
 * writer's riders wait for RIDE_MS (a busy writer also makes small commits between its large ones:
 * the average, not the commit at hand, tells it is busy).
 */
export const RIDE_ALONG_BELOW = 8

/** A job threw after it wrote: the batch runs again, a savepoint per job. */
class WroteThenThrew extends Error {}

const call = (job: () => unknown) => job()
/** `(job)` or `(declared, job)`: the job, and what it lists. */
const jobOf = <T>(a: Declared | (() => T), b: (() => T) | undefined): (() => T) =>
  typeof a === 'function' ? a : b!
const listOf = (a: Declared | (() => unknown)) => (typeof a === 'function' ? undefined : a.announces)
const NONE: readonly string[] = []

export function createWriter(
  db: Db,
  {
    health,
    seqs,
    journal = createUndoJournal(),
    wal = createWalSync(db),
  }: { health: StoreHealth; seqs: Seqs; journal?: UndoJournal; wal?: WalSync },
): Writer {
  let queue: Pending[] = []
  /** The events the job running now lists (Declared); a `transaction` inside it adds its own. */
  let listed: readonly string[] = NONE
  /** Runs `p`'s job with what it lists, in `scope` (bare, or in a savepoint). */
  const runJob = (scope: (fn: () => unknown) => unknown, p: Pending) => {
    listed = p.announces ?? NONE
    try {
      return journal.scope(scope, p.job)
    } finally {
      listed = NONE
    }
  }
  let committedJobs = 0
  let riders: Pending[] = []
  let rideTimer: NodeJS.Timeout | undefined
  /** The riders waited RIDE_MS on a busy writer: its next commit takes them. */
  let ridersDue = false
  /** The riders are committed now, on their own if need be: a read needs them, or the writer is idle. */
  let ridersNow = false
  let scheduled = false
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    setImmediate(run)
  }
  const rideNow = () => {
    ridersNow = true
    schedule()
  }
  /** Commits made while the riders waited: the writer is busy, and will soon commit again. */
  let commitsWhileRiding = 0
  /** Jobs per commit lately (a moving average): riders join the next commit of a quiet writer. */
  let jobsPerCommit = 0
  const rideDue = () => {
    if (commitsWhileRiding === 0) return rideNow()
    // Its next commit takes them; should none come (the load ended), they commit on their own.
    ridersDue = true
    commitsWhileRiding = 0
    rideTimer = setTimeout(rideNow, RIDE_MS).unref()
  }
  // A -wal made anew (health.ts repaired a deleted one): the next fsync opens the new file.
  health.onWalRenewed(() => wal.renew?.())
  // Built once: better-sqlite3 makes four wrapper functions for every db.transaction() call. The
  // same wrapper runs BEGIN…COMMIT outside a transaction and SAVEPOINT…RELEASE inside one.
  const inTransaction = db.transaction((fn: () => unknown) => fn())
  const totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck()

  /** Runs the jobs in one transaction and commits it; `safe`: a savepoint for every job (a rerun). */
  function runBatch(batch: Pending[], safe: boolean): Array<{ ok: boolean; value: unknown }> {
    const outcomes: Array<{ ok: boolean; value: unknown }> = []
    // Memory changed by a job (balances) follows its savepoint, and the batch's COMMIT (undo.ts).
    journal.scope(inTransaction, () => {
      for (const p of batch) {
        if (!safe) {
          const before = totalChanges.get()
          try {
            outcomes.push({ ok: true, value: runJob(call, p) })
          } catch (err) {
            if (totalChanges.get() !== before || !db.inTransaction) throw new WroteThenThrew()
            health.observe(err)
            outcomes.push({ ok: false, value: err })
          }
          continue
        }
        try {
          outcomes.push({ ok: true, value: runJob(inTransaction, p) })
        } catch (err) {
          health.observe(err)
          // SQLite ended the whole transaction (SQLITE_FULL, an I/O error): nothing of the batch
          // is kept, and no later job may run outside it.
          if (!db.inTransaction) throw err
          outcomes.push({ ok: false, value: err })
        }
      }
    })
    return outcomes
  }

  /** Commits what is queued; returns how to settle the callers once the commit is durable. */
  function commit(): ((syncError: Error | null) => void) | undefined {
    scheduled = false
    const riding = riders.length > 0 && (ridersNow || ridersDue || jobsPerCommit < RIDE_ALONG_BELOW)
    // Riders alone make a commit only when they must (ridersNow); otherwise they wait for one.
    if (queue.length === 0 && !(riding && ridersNow)) return undefined
    // How many jobs the recent commits carried (a moving average): a busy writer's are many.
    jobsPerCommit += (queue.length - jobsPerCommit) / 4
    // The riders were there first: their jobs run first.
    const batch = riding ? [...riders, ...queue] : queue
    queue = []
    if (riding) {
      riders = []
      ridersDue = false
      ridersNow = false
      commitsWhileRiding = 0
      clearTimeout(rideTimer)
      rideTimer = undefined
    } else if (riders.length > 0) commitsWhileRiding++
    try {
      health.assertWritable()
    } catch (err) {
      for (const p of batch) p.reject(err)
      return undefined
    }
    const mark = health.mark()
    let outcomes: Array<{ ok: boolean; value: unknown }>
    try {
      try {
        outcomes = runBatch(batch, false)
      } catch (err) {
        if (!(err instanceof WroteThenThrew)) throw err
        seqs.take() // of the run rolled back
        outcomes = runBatch(batch, true)
      }
    } catch (err) {
      // The commit itself failed: nothing of this batch is stored, so nobody may hear "success".
      health.observe(err)
      seqs.take()
      for (const p of batch) p.reject(err)
      return undefined
    }
    const marks = seqs.take()
    committedJobs += batch.length
    return syncError => {
      if (syncError) health.observe(syncError)
      else if (outcomes.some(o => o.ok)) health.wrote(mark)
      batch.forEach((p, i) => {
        const o = outcomes[i]!
        // Committed but perhaps not on disk (EIO): answer a server error rather than claim success.
        if (syncError) p.reject(syncError)
        else if (o.ok) p.resolve(o.value)
        else p.reject(o.value)
      })
      if (!syncError) seqs.publish(marks)
    }
  }

  // While an fsync runs, new jobs wait in the queue and are committed together when it returns:
  // their callers would wait for the next fsync anyway, and one commit of many jobs writes each
  // page it touches to the WAL once, instead of once per turn of the event loop.
  let syncing = false

  function run(): void {
    if (syncing) return // the fsync's completion runs what is queued
    const settle = commit()
    if (!settle) return
    syncing = true
    wal.sync(err => {
      syncing = false
      settle(err)
      if (queue.length > 0 || (riders.length > 0 && ridersNow)) run()
    })
  }

  return {
    write<T>(a: Declared | (() => T), b?: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({
          job: jobOf(a, b),
          announces: listOf(a),
          resolve: resolve as (v: unknown) => void,
          reject,
        })
        schedule()
      })
    },
    ride<T>(a: Declared | (() => T), b?: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        riders.push({
          job: jobOf(a, b),
          announces: listOf(a),
          resolve: resolve as (v: unknown) => void,
          reject,
        })
        rideTimer ??= setTimeout(rideDue, RIDE_MS).unref()
      })
    },
    hurry() {
      if (riders.length > 0) rideNow()
    },
    flush() {
      if (riders.length > 0) ridersNow = true
      const settle = commit()
      wal.syncNow()
      settle?.(null)
    },
    transaction<T>(a: Declared | (() => T), b?: () => T): T {
      const fn = jobOf(a, b)
      const announces = listOf(a)
      const outermost = !db.inTransaction
      if (outermost) health.assertWritable()
      const mark = health.mark()
      // Inside a job: what it lists, and what this declares; outermost: what this declares.
      const outer = listed
      if (announces) listed = outermost ? announces : [...outer, ...announces]
      else if (outermost) listed = NONE
      try {
        const result = journal.scope(inTransaction, fn) as T
        if (outermost) {
          const marks = seqs.take()
          wal.syncNow()
          health.wrote(mark)
          seqs.publish(marks)
        }
        return result
      } catch (err) {
        health.observe(err)
        throw err
      } finally {
        listed = outer
      }
    },
    assertListed(type) {
      if (!listed.includes(type)) throw new UnlistedEvent(type, listed)
    },
    committed: () => committedJobs,
    close: () => {
      clearTimeout(rideTimer)
      wal.close()
    },
  }
}

/**
 * Makes committed transactions durable. The database runs with `synchronous = NORMAL` (db.ts): a
 * COMMIT writes its pages to the WAL file without waiting for the disk, and this then fsyncs that
 * file. `sync(done)` does it on libuv's thread pool, so the event loop keeps parsing and running
 * the next group of requests while the disk works, and one fsync covers every commit made before
 * it started (group commit across batches). `syncNow()` is the blocking form for rare writes
 * outside the request path. Either way nobody hears "done" before the fsync returned: the same
 * guarantee as `synchronous = FULL`, without stalling the process for each fsync.
 */
export interface WalSync {
  sync(done: (err: Error | null) => void): void
  syncNow(): void
  /** The -wal at the path is a new file: let go of the old descriptor, open the new one when next needed. */
  renew?(): void
  close(): void
}

export function createWalSync(db: Db): WalSync {
  // Nothing to make durable in memory.
  if (db.memory) return { sync: done => queueMicrotask(() => done(null)), syncNow() {}, close() {} }
  const walPath = `${db.name}-wal`
  let fd: number | undefined
  // The WAL file exists once the connection has written in WAL mode; SQLite only deletes it when
  // the last connection closes, so the descriptor stays valid for the life of the store.
  const descriptor = () => {
    fd ??= openSync(walPath, 'r+')
    return fd
  }

  let inFlight = false
  let closing = false
  /** The descriptor is of a WAL SQLite no longer writes: let go of it once no fsync uses it. */
  let stale = false
  let waiting: Array<(err: Error | null) => void> = []

  function start(): void {
    inFlight = true
    const batch = waiting
    waiting = []
    let target: number
    try {
      target = descriptor()
    } catch (err) {
      inFlight = false
      for (const done of batch) done(err as Error)
      return
    }
    fsync(target, err => {
      inFlight = false
      if (stale) release()
      for (const done of batch) done(err)
      if (waiting.length > 0) start()
      else if (closing) release()
    })
  }

  function release(): void {
    stale = false
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  }

  return {
    sync(done) {
      // Commits made while an fsync is running wait for the next one: that one started too early
      // to be sure to cover them.
      waiting.push(done)
      if (!inFlight) start()
    },
    syncNow() {
      fsyncSync(descriptor())
    },
    renew() {
      // What the old descriptor's fsync in flight covers was checkpointed into the database file
      // (synced) by the repair itself: it may finish on the old file.
      if (inFlight) stale = true
      else release()
    },
    close() {
      // An fsync still running keeps the descriptor until it returns.
      closing = true
      if (!inFlight) release()
    },
  }
}
