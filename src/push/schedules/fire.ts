import type { PipelineDeps } from '../../deps.js'
import { isApiError } from '../../errors.js'
import type { Tenant } from '../../tenancy.js'
import { pushErrors } from '../errors.js'
import { dispatchPush, parsePush } from '../send/index.js'
import { nextOccurrence, parseTrigger } from './occurrences.js'
import type { Firing } from './table.js'

export interface Fired {
  firing: Firing
  /** The task's next occurrence (app time), or null when it has none left. */
  next: number | null
}

/**
 * Fires one occurrence of a JPush schedule (jpush-api.md §8): THE place a schedule's push goes
 * out, and so where a `schedule.fired` event belongs. Call it inside a write job: the claim (the
 * task moves on to its next occurrence), the push and the record of its msg_id commit together or
 * not at all, so racing ticks, a PUT or DELETE at the due moment, or a kill half-way can never
 * fire an occurrence twice or half. The push is POST /v3/push's own (validation, delivery,
 * statistics, the broadcast limit), made at the occurrence's time, so that a clock moved past
 * several occurrences has each of them push at its own time, in order.
 * Returns undefined when there was nothing to fire (claimed already, changed, deleted).
 */
export function firePushSchedule(
  deps: PipelineDeps,
  appKey: string,
  scheduleId: string,
  dueAt: number,
): Fired | undefined {
  const { store } = deps
  const app = store.apps.get(appKey)
  const task = store.pushSchedules.get(appKey, scheduleId)
  if (!app || !task || task.nextDueAt !== dueAt) return undefined
  const next = nextOccurrence(parseTrigger(task.trigger), dueAt + 1) ?? null
  if (!store.pushSchedules.claim(appKey, scheduleId, dueAt, next)) return undefined

  const tenant: Tenant = { app, now: () => dueAt }
  let firing: Firing
  try {
    // In a savepoint of its own: a push refused half-way leaves nothing but its error.
    const outcome = store.transaction(() => dispatchPush(deps, tenant, parsePush(task.push, appKey), false))
    const error = outcome.noTarget
    firing = firingOf(scheduleId, dueAt, outcome.msgId, error?.code ?? 0, error?.message ?? '')
  } catch (err) {
    if (!isApiError(err)) throw err
    // 2008 (broadcasts used up today), 1003 (a registration_id no longer known)…: no msg_id then.
    const msgId = typeof err.extra.msg_id === 'string' ? err.extra.msg_id : ''
    firing = firingOf(scheduleId, dueAt, msgId, err.code, err.message)
  }
  store.pushSchedules.recordFiring(firing)
  firedEvent(deps, appKey, firing)
  return { firing, next }
}

/**
 * schedule.fired, after the push's own events (push.delivered…): the occurrence as GET
 * /_sandbox/push/schedules shows it in `firings`, with the task's id and the SMS schedules' keys.
 */
function firedEvent(deps: PipelineDeps, appKey: string, f: Firing): void {
  const data = {
    api: 'push',
    schedule_id: f.scheduleId,
    fired_at: new Date(f.dueAt).toISOString(),
    msg_id: f.msgId === '' ? null : f.msgId,
    error: f.errorCode === 0 ? null : { code: f.errorCode, message: f.errorMessage },
  }
  deps.store.events.append({ appKey, type: 'schedule.fired', data, at: f.dueAt })
}

const firingOf = (
  scheduleId: string,
  dueAt: number,
  msgId: string,
  errorCode: number,
  errorMessage: string,
) => ({
  scheduleId,
  dueAt,
  msgId,
  errorCode,
  errorMessage,
})

/**
 * An occurrence that could not fire for a fault of the sandbox (not of the push): it is marked as
 * fired with 1000 and the task moves on, so the loop never spins on it. Inside a write job.
 */
export function skipPushScheduleOccurrence(
  deps: PipelineDeps,
  appKey: string,
  scheduleId: string,
  dueAt: number,
): number | null {
  const { store } = deps
  let next: number | null = null
  try {
    const task = store.pushSchedules.get(appKey, scheduleId)
    if (task) next = nextOccurrence(parseTrigger(task.trigger), dueAt + 1) ?? null
  } catch {
    next = null // a task that no longer reads (its stored sections damaged) fires no more
  }
  if (store.pushSchedules.claim(appKey, scheduleId, dueAt, next)) {
    const firing = firingOf(scheduleId, dueAt, '', 1000, pushErrors.internal().message)
    store.pushSchedules.recordFiring(firing)
    firedEvent(deps, appKey, firing)
  }
  return next
}
