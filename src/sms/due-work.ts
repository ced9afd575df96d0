import type { JobDeps } from '../deps.js'
import type { DueWork } from '../scheduler/due-work.js'
import type { App } from '../store/apps/apps.js'
import { REPORTS_DUE } from '../store/sms/reports.js'
import { REVIEW_RESULTS_DUE, REVIEWS_DUE } from '../store/sms/reviews.js'
import { SCHEDULES_DUE } from '../store/sms/schedules.js'
import { iso } from '../time.js'
import { fireSchedule } from './schedules/fire.js'

// The SMS entries of the due-work list (scheduler/due-work.ts; the list: src/app.ts): each kind run
// for every app at the scheduler's process time `now` (each app on its own clock: now + its
// offset), and reviews for one app at its own time when a request catches up. None throws for one
// bad item: a failure is logged and the item is set aside so the loop cannot spin on it.

const BATCH = 200
/** Rounds per tick; whatever is left is picked up at once by the next tick. */
const MAX_ROUNDS = 20

/** Templates and signatures under review are approved once REVIEW_DELAY_MS has passed. */
export const dueReviews: DueWork<JobDeps> = {
  name: 'reviews',
  nextDue: [REVIEWS_DUE.templates, REVIEWS_DUE.signs],
  run: settleDueReviews,
  catchUp: settleReviewsOf,
}

/** Scheduled messages (jsms-api.md §2.6) go out at their send_time. */
export const dueSchedules: DueWork<JobDeps> = {
  name: 'schedules',
  nextDue: [SCHEDULES_DUE],
  run: fireDueSchedules,
}

/** Delivery reports arrive REPORT_DELAY_MS after their message (and are called back). */
export const dueReports: DueWork<JobDeps> = {
  name: 'reports',
  nextDue: [REPORTS_DUE],
  run: arriveReports,
}

/** Review decisions are called back (SMS_TEMPLATE, SMS_SIGN) once recorded. */
export const dueReviewResults: DueWork<JobDeps> = {
  name: 'review results',
  nextDue: [REVIEW_RESULTS_DUE],
  run: emitReviewEvents,
}

/** Approves the app's reviews whose time has come (REVIEW_DELAY_MS): review.decided events. */
function settleReviewsOf({ store }: JobDeps, app: App, now: number): void {
  const { appKey } = app
  const decided = (data: unknown) => store.events.append({ appKey, type: 'review.decided', data, at: now })
  for (const t of store.templates.settleReviews(appKey, now))
    decided(reviewDecision('template', t.tempId, 1, null, now))
  for (const s of store.signs.settleReviews(appKey, now))
    decided(reviewDecision('sign', s.signId, 1, null, now))
}

/** Every app with a review due on its own clock, each in its own write job. */
async function settleDueReviews(deps: JobDeps, now: number): Promise<void> {
  const { store } = deps
  await Promise.all(
    store.reviews.dueApps(now).map(appKey =>
      store
        .write(() => {
          const app = store.apps.get(appKey)
          if (app) settleReviewsOf(deps, app, now + app.clockOffsetMs)
        })
        // One app's failure is its own: the others' reviews are settled in their own jobs.
        .catch(err => {
          deps.log.error({ err, app_key: appKey }, 'reviews of this app could not be settled')
          throw err
        }),
    ),
  )
}

/**
 * Sends one due task, or sets it aside when sending fails for a fault of the sandbox (it is then
 * marked as sent with errors, never retried in a loop). Call it inside a write job: the firing is
 * a savepoint of its own, so a failure half-way leaves no trace but the mark.
 */
function fireOrAbandon(deps: JobDeps, appKey: string, scheduleId: string): void {
  try {
    deps.store.transaction(() => fireSchedule(deps, appKey, scheduleId))
  } catch (err) {
    deps.log.error(
      { err, app_key: appKey, schedule_id: scheduleId },
      'scheduled message failed; marked as sent with errors',
    )
    deps.store.schedules.abandon(scheduleId, deps.clock.now())
  }
}

/** Fires every due task of every app, earliest first, each in its own write job. */
async function fireDueSchedules(deps: JobDeps, now: number): Promise<void> {
  const { store, log } = deps
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due = store.schedules.due(now, BATCH)
    if (due.length === 0) return
    await Promise.all(
      due.map(({ appKey, scheduleId }) =>
        store
          .write(() => fireOrAbandon(deps, appKey, scheduleId))
          .catch(err =>
            log.error(
              { err, app_key: appKey, schedule_id: scheduleId },
              'scheduled message could not be set aside',
            ),
          ),
      ),
    )
  }
}

/**
 * Reports whose time has come arrive: each gets its seq (the sms.report event) and, for an app
 * that takes callbacks, an SMS_REPORT in the outbox.
 */
async function arriveReports({ store }: JobDeps, now: number): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const n = await store.write(() => {
      const arrived = store.reports.takeArrived(now, BATCH)
      for (const r of arrived) {
        if (!r.callBack) continue
        const data = { msgId: r.msgId, status: r.status, receiveTime: r.reportAt, phone: r.mobile }
        store.callbacks.enqueue(r.appKey, 'SMS_REPORT', data, r.reportAt)
      }
      return arrived.length
    })
    if (n < BATCH) return
  }
}

/** Review results, for apps that take callbacks: SMS_TEMPLATE and SMS_SIGN (jsms-api.md §6). */
async function emitReviewEvents({ store }: JobDeps): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const n = await store.write(() => {
      const events = store.reviews.takeEvents(BATCH)
      for (const e of events) {
        if (!store.apps.get(e.appKey)?.callbackUrl) continue
        const data =
          e.kind === 'template'
            ? { tempId: e.refId, status: e.status, refuseReason: e.refuseReason }
            : { signId: e.refId, status: e.status, refuseReason: e.refuseReason }
        store.callbacks.enqueue(e.appKey, e.kind === 'template' ? 'SMS_TEMPLATE' : 'SMS_SIGN', data, e.at)
      }
      return events.length
    })
    if (n < BATCH) return
  }
}

/** The data of a review.decided event: the same whether the clock or the reviewer's desk decided. */
export const reviewDecision = (
  kind: 'template' | 'sign',
  id: number,
  status: 1 | 2,
  refuseReason: string | null,
  at: number,
) => ({
  kind,
  ...(kind === 'template' ? { temp_id: id } : { sign_id: id }),
  status,
  refuse_reason: refuseReason,
  decided_at: iso(at),
})
