import { randomUUID } from 'node:crypto'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import type { NewSchedule } from './input.js'
import { endOf, nextOccurrence } from './occurrences.js'
import { SCHEDULE_LIMITS, scheduleErrors, scheduleLimitOf } from './rules.js'

/**
 * Creates a task, inside a write job so that the cid and the limit cannot race: a cid seen within
 * a day answers the first task and creates nothing (jpush-api.md §5.10); past the app's limit of
 * tasks not yet over (100, `settings.schedules_limit`) the creation fails with 8100. The answer has
 * exactly `schedule_id` and `name` (jsdk SchedulePushResult; rb counts two keys).
 */
export function createTask(store: Store, app: App, input: NewSchedule, now: number) {
  const { appKey } = app
  if (input.cid !== undefined) {
    const first = store.pushSchedules.byCid(appKey, input.cid, now - SCHEDULE_LIMITS.cidLifetimeMs)
    if (first) return { schedule_id: first.scheduleId, name: first.name }
  }
  const limit = scheduleLimitOf(app)
  if (store.pushSchedules.countActive(appKey, now) >= limit)
    throw scheduleErrors.invalid(`the app already has ${limit} tasks that are not over (the limit)`)
  const trigger = input.trigger.parsed
  const scheduleId = randomUUID()
  store.pushSchedules.insert({
    scheduleId,
    appKey,
    cid: input.cid ?? null,
    name: input.name,
    enabled: true,
    kind: trigger.kind,
    trigger: input.trigger.raw,
    push: input.push,
    endsAt: endOf(trigger),
    nextDueAt: nextOccurrence(trigger, now) ?? null,
    createdAt: now,
    updatedAt: now,
  })
  return { schedule_id: scheduleId, name: input.name }
}
