import { createAppRows } from './app-rows.js'
import { createAppStore } from './apps.js'
import { createBalanceStore } from './balances.js'
import { createCallbackStore } from './callbacks.js'
import { createCodeStore } from './codes.js'
import type { Db } from './db.js'
import { createDeveloperStore } from './developers.js'
import { createDueIndex } from './due-index.js'
import { createDueTimes } from './due-times.js'
import { createEventLog } from './events.js'
import { createHealth, type HealthLog, watchStatements } from './health.js'
import { createListings } from './listings.js'
import { createMessageStore } from './messages.js'
import { createPushActivityStore } from './push-activity.js'
import { createPushClickStore } from './push-clicks.js'
import { createPushDeliveryStore } from './push-deliveries.js'
import { createPushDeviceStore } from './push-devices.js'
import { createPushFanOut } from './push-fan-out.js'
import { createPushFileStore } from './push-files.js'
import { createPushGroupStore } from './push-groups.js'
import { createPushScheduleFirings } from './push-schedule-firings.js'
import { createPushScheduleList } from './push-schedule-list.js'
import { createPushScheduleStore } from './push-schedules.js'
import { createPushWithdrawalStore } from './push-withdrawals.js'
import { createPushStore } from './pushes.js'
import { createReplyStore } from './replies.js'
import { createReportStore } from './reports.js'
import { createReviewStore } from './reviews.js'
import { createScheduleStore } from './schedules.js'
import { createSeqs } from './seqs.js'
import { createSequences } from './sequences.js'
import { createSignStore } from './signs.js'
import { createStream } from './stream.js'
import { createTemplateStore } from './templates.js'
import { createUndoJournal } from './undo.js'
import { createUnsubscribedStore } from './unsubscribed.js'
import { createWalSync } from './wal-sync.js'
import { createWriter } from './writer.js'

/** Every table group behind one object; no SQL lives outside src/store. */
export function createStore(db: Db, { log }: { log?: HealthLog } = {}) {
  // Before any module prepares its statements: each statement's failures reach the monitor.
  const health = createHealth(db, log)
  watchStatements(db, health.observe)
  const wal = createWalSync(db)
  // What transactions did to values held in memory, taken back with their rollback (undo.ts).
  const journal = createUndoJournal()
  // Every listed item's seq (seqs.ts); the writer tells its listeners once a commit is durable.
  const seqs = createSeqs(db)
  const writer = createWriter(db, wal, health, seqs, journal)
  // Built once (see writer.ts): BEGIN…COMMIT, or a savepoint when already in a transaction.
  const inTransaction = db.transaction((fn: () => unknown) => fn())
  // Told by the statements that create due work (due-index.ts); process time = app time - offset.
  const due = createDueIndex(db, appKey => apps.get(appKey)?.clockOffsetMs ?? 0)
  // One `apps` for the rows of apps and developers: credentials and settings, and balances, each
  // held in memory its own way (row-cache.ts, balances.ts).
  const { developerCache, ...balances } = createBalanceStore(db, journal)
  const apps = { ...createAppStore(db, due), ...createDeveloperStore(db, developerCache), ...balances }
  const messages = createMessageStore(db, seqs)
  const reports = createReportStore(db, due, seqs)
  const pushDeliveries = createPushDeliveryStore(db, due, seqs)
  const events = createEventLog(db, seqs)
  return {
    db,
    apps,
    templates: createTemplateStore(db, due),
    signs: createSignStore(db, due),
    messages,
    codes: createCodeStore(db),
    unsubscribed: createUnsubscribedStore(db),
    sequences: createSequences(db),
    pushDevices: createPushDeviceStore(db),
    pushes: createPushStore(db),
    pushDeliveries,
    /** A broadcast's deliveries in one statement (push-fan-out.ts). */
    pushFanOut: createPushFanOut(db, due, seqs),
    pushClicks: createPushClickStore(db),
    pushActivity: createPushActivityStore(db),
    pushSchedules: {
      ...createPushScheduleStore(db, due),
      ...createPushScheduleFirings(db, due),
      ...createPushScheduleList(db),
    },
    // The push variants of jpush-api.md §5.14.
    pushFiles: createPushFileStore(db),
    pushGroups: createPushGroupStore(db),
    pushWithdrawals: createPushWithdrawalStore(db),
    schedules: createScheduleStore(db, due),
    reports,
    replies: createReplyStore(db, seqs),
    callbacks: createCallbackStore(db, due, seqs),
    reviews: createReviewStore(db),
    /** Per-app seqs of everything listed and streamed, and who hears of new ones (seqs.ts). */
    seqs,
    /**
     * The event log (events.ts): `append` an event of what has no row of its own, inside the write
     * that makes the change (clock.moved, app.changed, app.reset, review.decided…).
     */
    events,
    /** An app's events after a seq, every source merged (GET /_sandbox/events). */
    stream: createStream({ messages, reports, pushDeliveries, events }),
    /** The ids of an app's templates, signatures and SMS tasks, for the control plane's lists. */
    listings: createListings(db),
    /** Every row of one app, in every table that has an `app_key` (reset, removal). */
    appRows: createAppRows(db, due),
    /** When due work next falls due: known in memory (`due`), asked of SQLite (`dueTimes`). */
    due,
    dueTimes: createDueTimes(db),
    /** Whether writes can survive (health.ts): readiness asks it, the writer obeys it. */
    health,
    /** Group-committed write: see writer.ts. */
    write: writer.write,
    flush: writer.flush,
    /**
     * A synchronous transaction, for rare writes outside the request path; durable when it
     * returns (a blocking fsync). Nested inside a write job it is just a savepoint.
     */
    transaction<T>(fn: () => T): T {
      const outermost = !db.inTransaction
      if (outermost) health.assertWritable()
      const mark = health.mark()
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
      }
    },
    /** Closes what the store holds besides the connection. */
    close(): void {
      wal.close()
      health.close()
    },
  }
}

export type Store = ReturnType<typeof createStore>
