import type { JobDeps } from '../../deps.js'
import type { DueWork } from '../../scheduler/due-work.js'
import { firePushSchedule, skipPushScheduleOccurrence } from './fire.js'
import { PUSH_SCHEDULES_DUE } from './table.js'

// The JPush schedules entry of the due-work list (scheduler/due-work.ts; the list: src/app.ts):
// every due occurrence of every app, each on its own app's clock, in time order, each fired once.

const BATCH = 200
/** Occurrences per tick; whatever is left is picked up at once by the next tick. */
const MAX_FIRINGS = 5_000

/** JPush schedule tasks (jpush-api.md §8) fire each occurrence at its time. */
export const duePushSchedules: DueWork<JobDeps> = {
  name: 'push schedules',
  announces: ['schedule.fired'],
  nextDue: [PUSH_SCHEDULES_DUE],
  run: fireDuePushSchedules,
}

/** Fires what is due at process time `now`, one write job per round of up to BATCH occurrences. */
async function fireDuePushSchedules(deps: JobDeps, now: number): Promise<void> {
  let fired = 0
  while (fired < MAX_FIRINGS) {
    const n = await deps.store.write(duePushSchedules, () => fireRound(deps, now))
    if (n === 0) return
    fired += n
  }
}

/**
 * One round, earliest first. A task fired here may be due again (a clock moved past several of
 * its occurrences) before the next item of the round: the round stops there, and the next one
 * reads again, so across tasks too every occurrence fires in time order.
 */
function fireRound(deps: JobDeps, now: number): number {
  let horizon = Number.POSITIVE_INFINITY
  let n = 0
  for (const item of deps.store.pushSchedules.due(now, BATCH)) {
    if (item.dueAt - item.offsetMs > horizon) break
    const next = fireOrSkip(deps, item.appKey, item.scheduleId, item.dueAt)
    n++
    if (next !== null) horizon = Math.min(horizon, next - item.offsetMs)
  }
  return n
}

/** Fires one occurrence in a savepoint; a fault of the sandbox marks it 1000 and moves the task on. */
function fireOrSkip(deps: JobDeps, appKey: string, scheduleId: string, dueAt: number): number | null {
  try {
    return deps.store.transaction(() => firePushSchedule(deps, appKey, scheduleId, dueAt))?.next ?? null
  } catch (err) {
    deps.log.error(
      { err, app_key: appKey, schedule_id: scheduleId },
      'scheduled push failed; its occurrence is marked 1000',
    )
    return skipPushScheduleOccurrence(deps, appKey, scheduleId, dueAt)
  }
}
