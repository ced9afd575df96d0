import type { AppDeps } from '../../deps.js'
import { firstValue, type QueryValue } from '../../http/body/query.js'
import { type RouteSpec, route } from '../../http/routes.js'
import {
  createScheduleDocs,
  deleteScheduleDocs,
  scheduleDocs,
  scheduleMsgIdsDocs,
  schedulesDocs,
  updateScheduleDocs,
} from './docs.js'
import { readNewSchedule, readScheduleUpdate } from './input.js'
import { endOf, nextOccurrence } from './occurrences.js'
import { SCHEDULE_LIMITS, scheduleErrors } from './rules.js'
import { createTask } from './tasks.js'
import { parseTrigger } from './trigger.js'
import { msgIdEntry, taskView } from './views.js'

// The Schedule API (jpush-api.md §8; docs2019 rest_api_push_schedule.md), at its own path and at
// the Beijing data centre's (`bjapi.push.jiguang.cn/v3/push/schedules`, §1.1). The scheduler
// fires the tasks (src/push/schedules/fire.ts); these routes only create, show, change
// and delete them.

type Id = { schedule_id: string }
// override_msg_id is a long (jpush-api.md §5.7): read exactly inside a task's push too.
const EXACT = { exactIntegers: ['push.options.override_msg_id'] }

/** `?page=`: 1 when absent (jpush-async sends no query string at all), else a whole number ≥ 1. */
function readPage(value: QueryValue): number {
  const text = firstValue(value) ?? ''
  if (text === '') return 1
  if (!/^\d{1,9}$/.test(text) || Number(text) < 1) throw scheduleErrors.invalid('page is invalid')
  return Number(text)
}

export function pushScheduleRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  /** A task of the calling app, not deleted; 8104 otherwise (another app's id is unknown here). */
  const visible = (appKey: string, scheduleId: string) => {
    const task = store.pushSchedules.get(appKey, scheduleId)
    if (!task || task.deletedAt !== null) throw scheduleErrors.notFound()
    return task
  }
  const routes = (base: string): RouteSpec[] => [
    {
      method: 'POST',
      url: base,
      docs: createScheduleDocs,
      config: EXACT,
      handler: async req => {
        const now = req.tenant.now()
        const input = readNewSchedule(req.body, req.tenant.app.appKey, now)
        return store.write(() => createTask(store, req.tenant.app, input, now))
      },
    },
    route<{ Querystring: { page?: QueryValue } }>({
      method: 'GET',
      url: base,
      docs: schedulesDocs,
      handler: async req => {
        const page = readPage(req.query.page)
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const total = store.pushSchedules.countActive(appKey, now)
        const size = SCHEDULE_LIMITS.perPage
        const tasks = store.pushSchedules.active(appKey, now, size, (page - 1) * size)
        return {
          total_count: total,
          total_pages: Math.ceil(total / size),
          page,
          schedules: tasks.map(taskView),
        }
      },
    }),
    route<{ Params: Id }>({
      method: 'GET',
      url: `${base}/:schedule_id`,
      docs: scheduleDocs,
      handler: async req => taskView(visible(req.tenant.app.appKey, req.params.schedule_id)),
    }),
    route<{ Params: Id }>({
      method: 'GET',
      url: `${base}/:schedule_id/msg_ids`,
      docs: scheduleMsgIdsDocs,
      handler: async req => {
        const task = visible(req.tenant.app.appKey, req.params.schedule_id)
        const msgids = store.pushSchedules.firings(task.scheduleId).map(msgIdEntry)
        return { count: msgids.length, msgids }
      },
    }),
    route<{ Params: Id }>({
      method: 'PUT',
      url: `${base}/:schedule_id`,
      docs: updateScheduleDocs,
      config: EXACT,
      handler: async req =>
        store.write(() => {
          const { appKey } = req.tenant.app
          const task = visible(appKey, req.params.schedule_id)
          const now = req.tenant.now()
          if (task.endsAt <= now) throw scheduleErrors.invalid('the task has expired and cannot be updated')
          const change = readScheduleUpdate(req.body, appKey, now, task.kind)
          const trigger = change.trigger?.parsed ?? parseTrigger(task.trigger)
          const enabled = change.enabled ?? task.enabled
          // A new trigger, or a task enabled again, fires from now on: what it missed is skipped.
          const restart = change.trigger !== undefined || !task.enabled
          const updated = {
            ...task,
            name: change.name ?? task.name,
            enabled,
            trigger: change.trigger?.raw ?? task.trigger,
            push: change.push ?? task.push,
            endsAt: endOf(trigger),
            nextDueAt: !enabled ? null : restart ? (nextOccurrence(trigger, now) ?? null) : task.nextDueAt,
            updatedAt: now,
          }
          store.pushSchedules.update(updated)
          return taskView(updated)
        }),
    }),
    route<{ Params: Id }>({
      method: 'DELETE',
      url: `${base}/:schedule_id`,
      docs: deleteScheduleDocs,
      handler: async req => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const removed = await store.write(() =>
          store.pushSchedules.remove(appKey, req.params.schedule_id, now),
        )
        if (!removed) throw scheduleErrors.notFound()
        // docs2019 shows an empty 200, on which jpush-async never settles: `{}` (README, Fidelity).
        return {}
      },
    }),
  ]
  return [...routes('/schedules'), ...routes('/push/schedules')]
}
