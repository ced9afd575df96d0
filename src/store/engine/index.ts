/**
 * The store engine: everything the table modules of src/store stand on, so that a table module
 * reads as plain SQL plus named calls into it. One SQLite file, one connection, one process.
 *
 * What it guarantees
 * - Durable before the answer: a write job (`write(job)`) resolves only once its transaction is
 *   committed and the WAL fsynced; whatever was answered survives a crash, SIGKILL included.
 * - Group commit: the jobs queued in one turn of the event loop, or while the last fsync ran,
 *   share one transaction and one fsync, which runs off the event loop. A job that throws rolls
 *   back alone: it runs without a savepoint, and if it threw after writing, the batch runs again
 *   with a savepoint per job (writer.ts decides; no caller says). A job nobody waits for may `ride`
 *   (the request journal's entries): it joins a commit the others make (the next on a quiet
 *   writer, the first after RIDE_MS on a busy one), or commits on its own when the writer is idle
 *   after RIDE_MS, or when `hurry()` says a read needs it.
 * - Exactly once: jobs run one after another on the event loop, so a check-then-write inside a job
 *   (a claim, a quota, a once-only code) never interleaves with another job.
 * - Memory follows rollback: what a job changes in memory (balances, id blocks) is recorded in the
 *   undo journal and taken back with its savepoint or its batch.
 * - Caches never stale: a cache keeps only committed values (or journaled ones), and every
 *   statement that writes a cached row forgets it right after it runs (declared: `writes`).
 * - Due bounds never late: the due index keeps a lower bound of each due query's next time; every
 *   statement that creates due work or brings it forward notes it (declared: `writes`), so the
 *   scheduler never sleeps past work (a bound may be early: SQLite is then asked again).
 * - Ids never repeat: a block of ids is reserved in its row, in the job that hands out its first.
 * - Seqs in commit order, and their listeners told only once the commit is durable.
 * - Events declared: a job lists the events it may append to the log (`write({ announces }, job)`,
 *   writer.ts: Declared); the log asks `assertListed` before each append, and an event the job did
 *   not list throws (UnlistedEvent): the job fails alone and its change with it, never a change
 *   without its event or an event nobody declared. The event is a row of the job's own commit.
 * - One process per file: SQLite's exclusive lock, which the kernel drops with the process.
 * - Failures seen: the health monitor hears SQLite's errors where they end up (the writer's and
 *   `transaction`'s catch, the app's onError hook, the scheduler's and the event stream's catch)
 *   and refuses writes that could not survive.
 *
 * How to add a table
 * 1. A migration, migrations/NNN_name.sql (forward-only). Give the table an `app_key`, or a
 *    cascading foreign key to one that has it: an app's reset finds its rows that way (app-rows.ts).
 * 2. A module `createXStore(engine)`: statements prepared once with `db.prepare`, and methods
 *    that run them; in its feature's folder (`table.ts`, e.g. src/push/plans/table.ts), or
 *    src/store/<area>/<table>.ts for what no feature owns. No SQL elsewhere.
 * 3. Statements that write are made with `writes(sql, touches)` (statements.ts), which declares
 *    beside the SQL what else they change: the caches of the rows they make stale (`forgets`),
 *    the due work they create or bring forward (`due`: its query and time), whether they move many
 *    apps' due times at once (`remaps`), the seq topic of the item they store (`seq`: the engine
 *    takes the app's next seq and binds it as `@seq`; `run` answers it; `seqCount`: a batch of rows
 *    in one statement, each numbered from `@seq` on, as a broadcast's slice is; `seqEach`: a batch
 *    of listed rows of many apps, a seq each, as the reports of a tick arriving). The engine applies
 *    them right after the statement runs: the table method does not.
 * 4. A feature's table declares its property of `Tables` and is made by its feature's `tables`
 *    (src/store/index.ts says how); any other is wired in src/store/index.ts. Callers write inside
 *    `store.write(() => …)`, and never say how (the writer decides savepoints: writer.ts); a job
 *    that appends events says which, `store.write({ announces: ['widget.fired'] }, () => …)`; work
 *    that falls due is an entry of the due-work list (src/scheduler/due-work.ts) that lists its
 *    query, and the events its writes announce (`announces`: they pass the entry as the declaration).
 *
 *   export const WIDGETS_DUE = dueQuery('x.fires_at', 'widgets x', 'x.fired_at IS NULL')
 *   export function createWidgetStore({ db, caches, writes }: Engine) {
 *     const widgets = caches.perApp()
 *     const get = db.prepare<[string, number], Row>('SELECT * FROM widgets WHERE app_key = ? AND id = ?')
 *     const insert = writes<{ appKey: string; id: number; firesAt: number }>(
 *       'INSERT INTO widgets (app_key, id, fires_at) VALUES (@appKey, @id, @firesAt)',
 *       { forgets: [widgets], due: { query: WIDGETS_DUE, at: w => w.firesAt } },
 *     )
 *     return {
 *       get: (appKey: string, id: number) => widgets.read(appKey, id, () => get.get(appKey, id) ?? null),
 *       add: (appKey: string, id: number, firesAt: number): void => void insert.run({ appKey, id, firesAt }),
 *     }
 *   }
 *
 * The files
 * - db.ts: opens the file (folder, a new one copied from the build's migrated file, lock, pragmas,
 *   migrations) and says what an operator got wrong.
 * - writer.ts: group commit, the WAL's fsync off the event loop, `transaction` for rare writes,
 *   and what the running job declared it announces.
 * - undo.ts: the undo journal, memory taken back with a rollback.
 * - health.ts: whether writes can survive (file or -wal replaced, damaged, disk full, file-size
 *   limit), the -wal repaired when it can be; readiness.
 * - caches.ts: row caches and per-app memos, and forgetting an app in all of them.
 * - statements.ts: `writes`, a statement that writes with what it touches declared beside it.
 * - due.ts: due queries and the due index (lower bounds of the next due time, per query and app).
 * - id-blocks.ts: vendor ids (msg_id, temp_id…), reserved a block at a time.
 * - item-seqs.ts: the per-app seq of everything listed and streamed, and who hears of new ones.
 * - lister.ts: the control plane's lists as SQL (filters, `after`, `since`, `until`, `limit`).
 * - statements.ts: `db.prepare` compiles a statement at its first call, not at the start.
 */
import { createCaches } from './caches.js'
import type { Db } from './db.js'
import { createDueIndex } from './due.js'
import { prepareOnFirstUse } from './first-use.js'
import { createHealth, type HealthLog } from './health.js'
import { createIdBlocks } from './id-blocks.js'
import { createSeqs } from './item-seqs.js'
import { createStatements } from './statements.js'
import { createUndoJournal } from './undo.js'
import { createWriter } from './writer.js'

export interface EngineOptions {
  /** Where the health monitor reports (the app's logger). */
  log?: HealthLog | undefined
  /** An app's clock offset: its due times are on its own clock (process time = due time - offset). */
  offsetOf: (appKey: string) => number
}

export function createEngine(db: Db, { log, offsetOf }: EngineOptions) {
  // The statements the table modules prepare are compiled by SQLite on their first call (statements.ts).
  prepareOnFirstUse(db)
  const health = createHealth(db, log)
  health.watch()
  const journal = createUndoJournal()
  const seqs = createSeqs(db)
  const writer = createWriter(db, { health, seqs, journal })
  const caches = createCaches(db, journal)
  const due = createDueIndex(db, offsetOf)
  return {
    db,
    /** Whether writes can survive: readiness asks it, the writer obeys it. */
    health,
    /** Memory changed inside a write job, taken back with its rollback. */
    journal,
    /** Per-app seqs of everything listed and streamed, and who hears of new ones. */
    seqs,
    caches,
    /** When due work next falls due: told by the writes that create it. */
    due,
    /** A statement that writes, with the caches and due work it touches declared beside its SQL. */
    writes: createStatements(db, due, seqs).writes,
    /** Vendor ids from SQLite's `sequences` rows. */
    ids: createIdBlocks(db, journal),
    /** Group-committed write, durable before it resolves; with the events it may announce (writer.ts: Declared). */
    write: writer.write,
    /** Throws unless the running job lists the event type (the event log asks it before an append). */
    assertListed: writer.assertListed,
    /** A write that joins a later commit instead of making one (writer.ts: RIDE_MS). */
    ride: writer.ride,
    hurry: writer.hurry,
    /** Jobs committed so far: whether others wrote meanwhile (writer.ts). */
    committed: writer.committed,
    flush: writer.flush,
    transaction: writer.transaction,
    /** Every row of an app is gone (a reset, a removal): nothing of it stays cached or bounded. */
    forgetApp(appKey: string): void {
      caches.forgetApp(appKey)
      due.forgetApp(appKey)
    },
    /** Closes what the engine holds besides the connection. */
    close(): void {
      writer.close()
      health.close()
    },
  }
}

export type Engine = ReturnType<typeof createEngine>

export type { DueQuery } from './due.js'
export { dueQuery } from './due.js'
export type { Declared } from './writer.js'
export { UnlistedEvent } from './writer.js'
