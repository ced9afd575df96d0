import { createAppRows } from './apps/app-rows.js'
import { createAppStore } from './apps/apps.js'
import { createBalanceStore } from './apps/balances.js'
import { createDeveloperStore } from './apps/developers.js'
import { createCallbackStore } from './callbacks/outbox.js'
import type { Db } from './engine/db.js'
import { createDueIndex } from './engine/due-index.js'
import { createDueTimes } from './engine/due-times.js'
import { createHealth, type HealthLog, watchStatements } from './engine/health.js'
import { createSequences } from './engine/id-blocks.js'
import { createSeqs } from './engine/item-seqs.js'
import { createUndoJournal } from './engine/undo.js'
import { createWalSync } from './engine/wal-sync.js'
import { createWriter } from './engine/writer.js'
import { createEventLog } from './events/log.js'
import { createStream } from './events/stream.js'
import { createPushActivityStore } from './push/activity.js'
import { createPushClickStore } from './push/clicks.js'
import { createPushDeliveryStore } from './push/deliveries.js'
import { createPushDeviceStore } from './push/devices.js'
import { createPushFanOut } from './push/fan-out.js'
import { createPushFileStore } from './push/files.js'
import { createPushGroupStore } from './push/groups.js'
import { createPushStore } from './push/pushes.js'
import { createPushScheduleFirings } from './push/schedule-firings.js'
import { createPushScheduleList } from './push/schedule-list.js'
import { createPushScheduleStore } from './push/schedules.js'
import { createPushWithdrawalStore } from './push/withdrawals.js'
import { createCodeStore } from './sms/codes.js'
import { createListings } from './sms/listings.js'
import { createMessageStore } from './sms/messages.js'
import { createReplyStore } from './sms/replies.js'
import { createReportStore } from './sms/reports.js'
import { createReviewStore } from './sms/reviews.js'
import { createScheduleStore } from './sms/schedules.js'
import { createSignStore } from './sms/signs.js'
import { createTemplateStore } from './sms/templates.js'
import { createUnsubscribedStore } from './sms/unsubscribed.js'

/** Every table group behind one object; no SQL lives outside src/store. */
export function createStore(db: Db, { log }: { log?: HealthLog } = {}) {
  // Before any module prepares its statements: each statement's failures reach the monitor.
  const health = createHealth(db, log)
  const statements = watchStatements(db, health.observe)
  const wal = createWalSync(db)
  // What transactions did to values held in memory, taken back with their rollback (undo.ts).
  const journal = createUndoJournal()
  // Every listed item's seq (seqs.ts); the writer tells its listeners once a commit is durable.
  const seqs = createSeqs(db)
  const writer = createWriter(db, wal, health, seqs, journal, statements)
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
    sequences: createSequences(db, journal),
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
