import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { scheduleRules } from '../../advisor/schedule.js'
import { pushScheduleChanged } from '../../changes/announce.js'
import type { PipelineDeps } from '../../deps.js'
import { firstValue } from '../../http/body/query.js'
import { field, params, query, text } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { App } from '../../store/apps/apps.js'
import type { Store } from '../../store/index.js'
import { type NewSchedule, newTask, taskChanges } from './input.js'
import { endOf, nextOccurrence, parseTrigger, scheduleSubject } from './occurrences.js'
import { scheduleErrors as e, SCHEDULE_LIMITS, scheduleLimitOf } from './rules.js'
import type { Firing, PushSchedule } from './table.js'

// The Schedule API (jpush-api.md §8; docs2019 rest_api_push_schedule.md), at its own path and at
// the Beijing data centre's (`bjapi.push.jiguang.cn/v3/push/schedules`, §1.1). The scheduler
// fires the tasks (fire.ts); these routes only create, show, change and delete them. Whatever a
// request gets wrong is 8100, its message saying what; a task that is not there is 8104.

const AT_BEIJING = ' Also at `/v3/push/schedules…` (the Beijing data centre, jpush-api.md §1.1).'

const taskAnswer = z.object({
  schedule_id: z.string().describe('A UUID.'),
  name: z.string(),
  enabled: z.boolean(),
  trigger: z.record(z.string(), z.unknown()).describe('As it was sent.'),
  push: z.record(z.string(), z.unknown()).describe('As it was sent.'),
})

/** The task object of GET, the list and PUT: exactly these five keys (rb tests count them). */
const taskView = (s: PushSchedule): z.input<typeof taskAnswer> => ({
  schedule_id: s.scheduleId,
  name: s.name,
  enabled: s.enabled,
  trigger: s.trigger,
  push: s.push,
})

/**
 * One entry of `msgids`: a JSON-encoded string of {msg_id, error, needRetry, ts}, the shape of
 * tasks created after 2022-03-17. msg_id is a string (17 digits do not fit a double), `ts` the
 * epoch milliseconds of the occurrence; needRetry is false, as nothing is retried.
 */
const msgIdEntry = (f: Firing) =>
  JSON.stringify({
    msg_id: f.msgId,
    error: { code: f.errorCode, message: f.errorMessage },
    needRetry: false,
    ts: f.dueAt,
  })

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
    throw e.invalid(`the app already has ${limit} tasks that are not over (the limit)`)
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
  pushScheduleChanged(store, appKey, 'created', scheduleId, now)
  return { schedule_id: scheduleId, name: input.name }
}

/** `?page=`: 1 when absent (jpush-async sends no query string at all), else a whole number ≥ 1. */
const page = field({
  read(value): number {
    const digits = firstValue(value) ?? ''
    if (digits === '') return 1
    if (!/^\d{1,9}$/.test(digits) || Number(digits) < 1) throw e.invalid('page is invalid')
    return Number(digits)
  },
  schema: z.string().describe('A whole number from 1.').optional(),
  errors: [e.invalid('page is invalid')],
})

const idParams = params({ schedule_id: text() })
const done = z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).')

export function pushScheduleRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  /** A task of the calling app, not deleted; 8104 otherwise (another app's id is unknown here). */
  const visible = (appKey: string, scheduleId: string) => {
    const task = store.pushSchedules.get(appKey, scheduleId)
    if (!task || task.deletedAt !== null)
      throw e
        .notFound()
        .because(task ? `task ${scheduleId} was deleted` : `the app has no task ${scheduleId}`)
    return task
  }
  const routes = (base: string): RouteSpec[] => [
    vendorRoute({
      method: 'POST',
      url: base,
      summary: 'Create a scheduled push (jpush-api.md §8)',
      description:
        'Fires on the app clock, through the sandbox’s scheduler, exactly once per occurrence: each firing ' +
        'is a real push (same checks, delivery, statistics and limits). At most ' +
        `${SCHEDULE_LIMITS.activeTasks} tasks not yet over per app (\`settings.schedules_limit\`); a \`cid\` ` +
        `seen within a day answers its first task.${AT_BEIJING}`,
      checks: [
        newTask,
        e.invalid(`the app already has ${SCHEDULE_LIMITS.activeTasks} tasks that are not over (the limit)`),
      ],
      answer: z.object({ schedule_id: z.string(), name: z.string() }),
      handler: async req => {
        // One now for the checks of its times and for the task it makes.
        const now = req.tenant.now()
        const input = newTask.read(req, now)
        advise(req, deps.config, scheduleRules, scheduleSubject(input.trigger.parsed, now))
        return store.write({ announces: ['schedule.changed'] }, () =>
          createTask(store, req.tenant.app, input, now),
        )
      },
    }),
    vendorRoute({
      method: 'GET',
      url: base,
      summary: "The app's tasks not yet over, 50 a page (jpush-api.md §8)",
      description: `Page 1 without \`page\`.${AT_BEIJING}`,
      reads: { query: query({ page }) },
      answer: z.object({
        total_count: z.int(),
        total_pages: z.int(),
        page: z.int(),
        schedules: z.array(taskAnswer),
      }),
      handler: async (req, { query }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const total = store.pushSchedules.countActive(appKey, now)
        const size = SCHEDULE_LIMITS.perPage
        const tasks = store.pushSchedules.active(appKey, now, size, (query.page - 1) * size)
        return {
          total_count: total,
          total_pages: Math.ceil(total / size),
          page: query.page,
          schedules: tasks.map(taskView),
        }
      },
    }),
    vendorRoute({
      method: 'GET',
      url: `${base}/:schedule_id`,
      summary: 'A task (jpush-api.md §8)',
      description: `Another app’s task, and a deleted one, are not there.${AT_BEIJING}`,
      reads: { params: idParams },
      checks: [e.notFound()],
      answer: taskAnswer,
      handler: async (req, { params }) => taskView(visible(req.tenant.app.appKey, params.schedule_id)),
    }),
    vendorRoute({
      method: 'GET',
      url: `${base}/:schedule_id/msg_ids`,
      summary: 'The pushes a task has fired (jpush-api.md §8)',
      description: `In the order they fired.${AT_BEIJING}`,
      reads: { params: idParams },
      checks: [e.notFound()],
      answer: z.object({
        count: z.int(),
        msgids: z
          .array(z.string())
          .describe(
            'Each a JSON-encoded `{"msg_id":"…","error":{"code","message"},"needRetry":false,"ts":<epoch ms of the occurrence>}`.',
          ),
      }),
      handler: async (req, { params }) => {
        const task = visible(req.tenant.app.appKey, params.schedule_id)
        const msgids = store.pushSchedules.firings(task.scheduleId).map(msgIdEntry)
        return { count: msgids.length, msgids }
      },
    }),
    vendorRoute({
      method: 'PUT',
      url: `${base}/:schedule_id`,
      summary: 'Replace sections of a task (jpush-api.md §8)',
      description:
        'Each section given (`name`, `enabled`, `trigger`, `push`) replaces the whole of it; a single ' +
        'task stays single, a periodical one periodical. A new trigger, or a task enabled again, fires ' +
        `from now on. Answers the task as it now is.${AT_BEIJING}`,
      reads: { params: idParams },
      // The task is found before its changes are read, inside the write that makes them.
      checks: [e.notFound(), e.invalid('the task has expired and cannot be updated'), taskChanges],
      answer: taskAnswer,
      handler: async (req, { params }) =>
        store.write({ announces: ['schedule.changed'] }, () => {
          const { appKey } = req.tenant.app
          const task = visible(appKey, params.schedule_id)
          const now = req.tenant.now()
          if (task.endsAt <= now) throw e.invalid('the task has expired and cannot be updated')
          const change = taskChanges.read(req, now, task.kind)
          // Warnings only (advisor/schedule.ts): nothing to refuse inside the write.
          if (change.trigger)
            advise(req, deps.config, scheduleRules, scheduleSubject(change.trigger.parsed, now))
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
          pushScheduleChanged(store, appKey, 'updated', task.scheduleId, now)
          return taskView(updated)
        }),
    }),
    vendorRoute({
      method: 'DELETE',
      url: `${base}/:schedule_id`,
      summary: 'Delete a task (jpush-api.md §8)',
      description: `It fires no more.${AT_BEIJING}`,
      reads: { params: idParams },
      checks: [e.notFound()],
      answer: done,
      handler: async (req, { params }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const removed = await store.write({ announces: ['schedule.changed'] }, () => {
          if (!store.pushSchedules.remove(appKey, params.schedule_id, now)) return false
          pushScheduleChanged(store, appKey, 'deleted', params.schedule_id, now)
          return true
        })
        if (!removed) throw e.notFound()
        // docs2019 shows an empty 200, on which jpush-async never settles: `{}` (README, Fidelity).
        return {}
      },
    }),
  ]
  return [...routes('/schedules'), ...routes('/push/schedules')]
}
