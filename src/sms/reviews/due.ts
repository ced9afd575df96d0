import type { JobDeps } from '../../deps.js'
import { DUE_BATCH as BATCH, type DueWork, DUE_MAX_ROUNDS as MAX_ROUNDS } from '../../scheduler/due-work.js'
import type { App } from '../../store/apps/apps.js'
import { iso } from '../../time.js'
import { REVIEW_RESULTS_DUE, REVIEWS_DUE } from './table.js'

// The reviews' entries of the due-work list (scheduler/due-work.ts; the list: src/app.ts): each kind
// run for every app at the scheduler's process time `now` (each app on its own clock: now + its
// offset), and reviews for one app at its own time when a request catches up. None throws for one
// bad item: a failure is logged and the item is set aside so the loop cannot spin on it.

/** Templates and signatures under review are approved once REVIEW_DELAY_MS has passed. */
export const dueReviews: DueWork<JobDeps> = {
  name: 'reviews',
  announces: ['review.decided'],
  nextDue: [REVIEWS_DUE.templates, REVIEWS_DUE.signs],
  run: settleDueReviews,
  catchUp: settleReviewsOf,
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
        .write(dueReviews, () => {
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
