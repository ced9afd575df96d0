import { createActivityStore } from './apps/activity.js'
import { createAppDocument } from './apps/app-document.js'
import { createAppRows } from './apps/app-rows.js'
import { createAppStore } from './apps/apps.js'
import { createBalanceStore } from './apps/balances.js'
import { createDeveloperStore } from './apps/developers.js'
import { createCallbackStore } from './callbacks/outbox.js'
import type { Db } from './engine/db.js'
import type { HealthLog } from './engine/health.js'
import { createEngine, type Engine } from './engine/index.js'
import { type Announces, createEventLog } from './events/log.js'
import { createRequestJournal } from './events/requests.js'

/**
 * The tables the features bring (src/http/feature.ts), each a property of the store: a feature's
 * table module adds its own by declaration merging, as Fastify's decorators do,
 *
 *   declare module '../../store/index.js' { interface Tables { pushPlans: PushPlanStore } }
 *
 * and its feature's `tables` makes it; createStore is handed the features' factories (app.ts), so
 * the store never imports a feature.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the features' table modules (above)
export interface Tables {}

/** The engine's `write` and `transaction`, in the event log's types (events/log.ts: Announces). */
interface AnnouncingWrite {
  <T>(job: () => T): Promise<T>
  <T>(declared: Announces, job: () => T): Promise<T>
}
interface AnnouncingTransaction {
  <T>(fn: () => T): T
  <T>(declared: Announces, fn: () => T): T
}

/** A feature's tables, made over the store engine. */
export type TableFactory = (engine: Engine) => Partial<Tables>

/**
 * Every table group behind one object, over the store engine (engine/index.ts: what it guarantees
 * and how to add a table); SQL lives in src/store and in the features' table modules only.
 */
export function createStore(
  db: Db,
  {
    log,
    journalMaxPerApp = 1000,
    appIdleMs = 0,
    tables = [],
  }: {
    log?: HealthLog
    journalMaxPerApp?: number
    /** How long an auto-provisioned app may stay idle before it expires (0: never). */
    appIdleMs?: number
    /** The features' tables (app.ts: every feature's, `tablesOf(features)`). */
    tables?: readonly TableFactory[]
  } = {},
) {
  // Due times are on each app's clock: the due index maps them to process time with its offset.
  const engine = createEngine(db, { log, offsetOf: appKey => apps.get(appKey)?.clockOffsetMs ?? 0 })
  // One `apps` for the rows of apps and developers: credentials and settings, and balances, each
  // held in memory its own way (apps.ts, balances.ts).
  const { forgetDeveloper, ...balances } = createBalanceStore(engine)
  const activity = createActivityStore(engine, {
    idleMs: appIdleMs,
    // The registry's count, kept by push/device's table: bound late, the features' tables are made
    // last (below), and named through `Tables`, never imported.
    devicesOf: appKey => store.pushDevices.count(appKey),
  })
  const apps = {
    ...createAppStore(engine, activity),
    ...createDeveloperStore(engine, { forgetDeveloper }),
    ...balances,
  }
  const events = createEventLog(engine)
  const requests = createRequestJournal(engine, activity, journalMaxPerApp)
  const parts = {
    db,
    apps,
    /** Vendor ids (msg_id, temp_id…), never repeated (engine/id-blocks.ts). */
    sequences: engine.ids,
    callbacks: createCallbackStore(engine),
    /** Per-app seqs of everything listed and streamed, and who hears of new ones (engine/item-seqs.ts). */
    seqs: engine.seqs,
    /**
     * The event log (events/log.ts): `append` an event of what has no row of its own, inside the
     * write that makes the change (clock.moved, app.changed, app.reset, review.decided…), which
     * lists it: `write({ announces: ['clock.moved'] }, job)`; any other type throws.
     */
    events,
    /**
     * The request journal (events/requests.ts): `record` an answered request's entries
     * (http/journal.ts), written with the next group commit; the control plane sees them committed
     * (http/journal.ts: `journalFirst`).
     */
    requests,
    /** Each app's latest activity and its counts, for the operator (apps/activity.ts). */
    activity,
    /** Every row of one app, in every table that has an `app_key` (reset, removal). */
    appRows: createAppRows(engine),
    /** Every row of one app, read for its document and written back (export, import). */
    appDocument: createAppDocument(engine),
    /** When due work next falls due, per due query and per app (engine/due.ts). */
    due: engine.due,
    /** Whether writes can survive (engine/health.ts): readiness asks it, the writer obeys it. */
    health: engine.health,
    /**
     * Group-committed write, durable before it resolves (engine/writer.ts), with the events the job
     * may append to the log: `store.write(job, { announces: ['code.verified'] })`; any other throws.
     */
    write: engine.write as AnnouncingWrite,
    /** Jobs committed so far: background work tells from it whether others wrote meanwhile. */
    committed: engine.committed,
    flush: engine.flush,
    /**
     * A synchronous transaction, for rare writes outside the request path; durable when it
     * returns (a blocking fsync). Nested inside a write job it is just a savepoint.
     */
    transaction: engine.transaction as AnnouncingTransaction,
    /** Closes what the store holds besides the connection. */
    close: engine.close,
  }
  const store = Object.assign(parts, ...tables.map(make => make(engine))) as typeof parts & Tables
  return store
}

export type Store = ReturnType<typeof createStore>
