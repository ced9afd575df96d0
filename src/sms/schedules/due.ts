import type { JobDeps } from '../../deps.js'
import { DUE_BATCH as BATCH, type DueWork, DUE_MAX_ROUNDS as MAX_ROUNDS } from '../../scheduler/due-work.js'
import { fireSchedule } from './fire.js'
import { SCHEDULES_DUE } from './table.js'

// The SMS tasks' entry of the due-work list (scheduler/due-work.ts; the list: src/app.ts). It never
// throws for one bad task: a failure is logged and the task set aside so the loop cannot spin on it.

/** Scheduled messages (jsms-api.md §2.6) go out at their send_time. */
export const dueSchedules: DueWork<JobDeps> = {
  name: 'schedules',
  announces: ['schedule.fired'],
  nextDue: [SCHEDULES_DUE],
  run: fireDueSchedules,
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
          .write(dueSchedules, () => fireOrAbandon(deps, appKey, scheduleId))
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
