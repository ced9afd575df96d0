import type { Courier } from '../callbacks/courier.js'
import { pushTick, settle as settlePushes } from '../push/delivery/delivery.js'
import { fireDuePushSchedules } from '../push/schedules/due.js'
import type { App } from '../store/apps/apps.js'
import type { DueKind } from '../store/engine/due-index.js'
import type { Store } from '../store/index.js'
import {
  arriveReports,
  emitReviewEvents,
  fireDueSchedules,
  type JobDeps,
  settleDueReviews,
  settleReviewsOf,
} from './jobs.js'

/**
 * One kind of work that falls due as time passes. The scheduler's loop and the sandbox clock move
 * walk the one list below; a request catches up the entries that have `catchUp`. A new kind is a
 * new entry, plus, in the store, the query of its next due time (store/engine/due-times.ts, under the
 * same name) and the note its creating statement gives the due index (store/engine/due-index.ts).
 */
export interface DueWork {
  name: DueKind
  /** When its next item falls due: process time over every app, or the app time of `appKey`. */
  nextDue(store: Store, appKey?: string): number | undefined
  /** The scheduler's tick: every app's due items at process time `now`, each app on its own clock. */
  run(deps: JobDeps, now: number): Promise<void>
  /**
   * One app's due items at its time `now`, inside the write job of a request's catch-up
   * (catch-up.ts): the state a request reads that time alone changes (a review's outcome, a
   * push's expiry or SMS fallback). What goes out as messages or callbacks (tasks, reports, review
   * results, retries) is the scheduler's alone: sent once, at its time, by the loop or a clock move.
   */
  catchUp?(deps: JobDeps, app: App, now: number): void
}

const entry = (name: DueKind, run: DueWork['run'], catchUp?: DueWork['catchUp']): DueWork => ({
  name,
  nextDue: (store, appKey) => store.dueTimes[name](appKey),
  run,
  ...(catchUp ? { catchUp } : {}),
})

/** In the order a tick runs them: reviews first, so a task or a fallback firing at the same moment sends with what was approved. */
export function createDueWork(courier: Courier): DueWork[] {
  return [
    entry('reviews', settleDueReviews, settleReviewsOf),
    entry('schedules', fireDueSchedules),
    entry('push schedules', fireDuePushSchedules),
    entry('reports', arriveReports),
    entry('review results', deps => emitReviewEvents(deps)),
    entry('callbacks', () => courier.dispatchDue()),
    entry('push', async (deps, now) => void (await pushTick(deps, now)), settlePushes),
  ]
}

/** The earliest next due time of the entries: process time, or the app time of `appKey`. */
export function earliestDue(work: readonly DueWork[], store: Store, appKey?: string): number | undefined {
  let min: number | undefined
  for (const w of work) {
    const t = w.nextDue(store, appKey)
    if (t !== undefined && (min === undefined || t < min)) min = t
  }
  return min
}
