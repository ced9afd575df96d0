import type { FastifyBaseLogger } from 'fastify'
import { appNow } from '../clock.js'
import type { PipelineDeps } from '../deps.js'
import { fireSchedule } from './fire-schedule.js'

// The scheduler's due work, each a function of the store and the clock that never throws for one
// bad item: a failure is logged and the item is set aside so the loop cannot spin on it.

const BATCH = 200
/** Rounds per tick; whatever is left is picked up at once by the next tick. */
const MAX_ROUNDS = 20

export type JobDeps = PipelineDeps & { log: FastifyBaseLogger }

/** Approves the reviews whose time has come (REVIEW_DELAY_MS), app by app on its own clock. */
export async function settleDueReviews({ store, clock }: JobDeps): Promise<void> {
  const apps = store.reviews.dueApps(clock.now())
  await Promise.all(
    apps.map(appKey =>
      store.write(() => {
        const app = store.apps.get(appKey)
        if (!app) return
        const now = appNow(clock, app)
        // The review_events triggers record what these approve, for the SMS_TEMPLATE/SMS_SIGN callbacks.
        store.templates.settleReviews(appKey, now)
        store.signs.settleReviews(appKey, now)
      }),
    ),
  )
}

/** Fires every due task, earliest first, each in its own write job. */
export async function fireDueSchedules(deps: JobDeps): Promise<void> {
  const { store, clock, log } = deps
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const due = store.schedules.due(clock.now(), BATCH)
    if (due.length === 0) return
    await Promise.all(
      due.map(({ appKey, scheduleId }) =>
        store
          .write(() => fireSchedule(deps, appKey, scheduleId))
          .catch(async err => {
            log.error(
              { err, schedule_id: scheduleId },
              'scheduled message failed; marked as sent with errors',
            )
            await store.write(() => store.schedules.abandon(scheduleId, clock.now())).catch(() => {})
          }),
      ),
    )
  }
}

/** Reports that arrived, for apps that take callbacks: into the outbox as SMS_REPORT. */
export async function emitDueReports({ store, clock }: JobDeps): Promise<void> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const n = await store.write(() => {
      const due = store.reports.takeDueNotifications(clock.now(), BATCH)
      for (const r of due) {
        const data = { msgId: r.msgId, status: r.status, receiveTime: r.reportAt, phone: r.mobile }
        store.callbacks.enqueue(r.appKey, 'SMS_REPORT', data, r.reportAt)
      }
      return due.length
    })
    if (n < BATCH) return
  }
}

/** Review results, for apps that take callbacks: SMS_TEMPLATE and SMS_SIGN (jsms-api.md §6). */
export async function emitReviewEvents({ store }: JobDeps): Promise<void> {
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
