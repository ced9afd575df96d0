import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { pushBody } from '../send/docs.js'
import { scheduleErrors as e, SCHEDULE_LIMITS } from './rules.js'

// The Schedule API (jpush-api.md §8; docs2019 rest_api_push_schedule.md): every operation also
// answers at the Beijing data centre's /v3/push/schedules (§1.1), with these same docs. Whatever a
// request gets wrong is 8100, its message saying what; a task that is not there is 8104.

const AT_BEIJING = ' Also at `/v3/push/schedules…` (the Beijing data centre, jpush-api.md §1.1).'
const dateTime = (what: string) =>
  z.string().describe(`\`YYYY-MM-DD HH:MM:SS\`, Beijing time, in full: ${what}.`)

const single = z.object({ time: dateTime('not past, at most a year ahead') })
const periodical = z.object({
  start: dateTime('at most a year ahead'),
  end: dateTime('after the start, at most a year after it, not past'),
  time: z.string().describe('`HH:MM:SS`: when, on each day it fires.'),
  time_unit: z.string().describe('`day`, `week` or `month`, in any case.'),
  frequency: z
    .int()
    .min(1)
    .max(SCHEDULE_LIMITS.maxFrequency)
    .describe('Every how many units (a numeric string is read too).'),
  point: z
    .array(z.string())
    .describe('`week`: `MON`…`SUN` (any case); `month`: `"01"`…`"31"`; `day`: none.')
    .optional(),
})
const trigger = z
  .union([z.object({ single }), z.object({ periodical })])
  .describe('Either `single` or `periodical`; a task keeps its kind.')
const name = z
  .string()
  .max(SCHEDULE_LIMITS.nameBytes)
  .describe(`Letters, digits, \`_\` and Chinese characters; at most ${SCHEDULE_LIMITS.nameBytes} bytes.`)
const push = pushBody
  .omit({ cid: true })
  .describe('A /v3/push body (§5), checked as /v3/push checks it; its own `cid` is ignored.')

const task = z.object({
  schedule_id: z.string().describe('A UUID.'),
  name: z.string(),
  enabled: z.boolean(),
  trigger: z.record(z.string(), z.unknown()).describe('As it was sent.'),
  push: z.record(z.string(), z.unknown()).describe('As it was sent.'),
})
const id = z.object({ schedule_id: z.string() })

/** The checks of a task's sections, for a new task and a replaced section, in their order. */
const checks = {
  name: [
    e.invalid('name must be a non-empty string'),
    e.invalid(`name is longer than ${SCHEDULE_LIMITS.nameBytes} bytes`),
    e.invalid('name may hold only letters, digits, _ and Chinese characters'),
  ],
  enabled: [e.invalid('enabled must be true or false')],
  /** The section as written (checked before a PUT's kind). */
  trigger: [
    e.invalid('trigger must hold either single or periodical'),
    e.invalid('trigger single.time must be "YYYY-MM-DD HH:MM:SS"'),
    e.invalid('trigger periodical.time_unit must be day, week or month'),
    e.invalid(`trigger periodical.frequency must be 1 to ${SCHEDULE_LIMITS.maxFrequency}`),
  ],
  /** Its times against the app's now. */
  times: [
    e.invalid('trigger single.time has passed'),
    e.invalid('trigger single.time is more than a year ahead'),
    e.invalid('trigger periodical spans more than a year'),
    e.invalid('trigger periodical never fires between its start (or now) and its end'),
  ],
  push: [e.invalid('push section is invalid: 1002 Missing parameter: audience')],
}

export const createScheduleDocs: RouteDocs = {
  summary: 'Create a scheduled push (jpush-api.md §8)',
  description:
    'Fires on the app clock, through the sandbox’s scheduler, exactly once per occurrence: each firing ' +
    'is a real push (same checks, delivery, statistics and limits). At most ' +
    `${SCHEDULE_LIMITS.activeTasks} tasks not yet over per app (\`settings.schedules_limit\`); a \`cid\` ` +
    `seen within a day answers its first task.${AT_BEIJING}`,
  body: z.object({
    cid: z.string().describe('`<appKey>-<uuid>` from GET /v3/push/cid?type=schedule.').optional(),
    name,
    enabled: z.literal(true).describe('A new task must be enabled.'),
    trigger,
    push,
  }),
  answers: { 200: z.object({ schedule_id: z.string(), name: z.string() }) },
  errors: [
    e.invalid('request data is not a JSON object'),
    e.invalid('cid is invalid'),
    e.invalid('trigger is required'),
    ...checks.name,
    ...checks.enabled,
    e.invalid('a new task must be enabled'),
    ...checks.trigger,
    ...checks.times,
    ...checks.push,
    e.invalid(`the app already has ${SCHEDULE_LIMITS.activeTasks} tasks that are not over (the limit)`),
  ],
}

export const schedulesDocs: RouteDocs = {
  summary: "The app's tasks not yet over, 50 a page (jpush-api.md §8)",
  description: `Page 1 without \`page\`.${AT_BEIJING}`,
  querystring: z.object({ page: z.string().describe('A whole number from 1.').optional() }),
  answers: {
    200: z.object({ total_count: z.int(), total_pages: z.int(), page: z.int(), schedules: z.array(task) }),
  },
  errors: [e.invalid('page is invalid')],
}

export const scheduleDocs: RouteDocs = {
  summary: 'A task (jpush-api.md §8)',
  description: `Another app’s task, and a deleted one, are not there.${AT_BEIJING}`,
  params: id,
  answers: { 200: task },
  errors: [e.notFound()],
}

export const scheduleMsgIdsDocs: RouteDocs = {
  summary: 'The pushes a task has fired (jpush-api.md §8)',
  description: `In the order they fired.${AT_BEIJING}`,
  params: id,
  answers: {
    200: z.object({
      count: z.int(),
      msgids: z
        .array(z.string())
        .describe(
          'Each a JSON-encoded `{"msg_id":"…","error":{"code","message"},"needRetry":false,"ts":<epoch ms of the occurrence>}`.',
        ),
    }),
  },
  errors: [e.notFound()],
}

export const updateScheduleDocs: RouteDocs = {
  summary: 'Replace sections of a task (jpush-api.md §8)',
  description:
    'Each section given (`name`, `enabled`, `trigger`, `push`) replaces the whole of it; a single ' +
    'task stays single, a periodical one periodical. A new trigger, or a task enabled again, fires ' +
    `from now on. Answers the task as it now is.${AT_BEIJING}`,
  params: id,
  body: z.object({ name, enabled: z.boolean(), trigger, push }).partial(),
  answers: { 200: task },
  errors: [
    e.notFound(),
    e.invalid('the task has expired and cannot be updated'),
    e.invalid('request data is not a JSON object'),
    ...checks.name,
    ...checks.enabled,
    ...checks.trigger,
    e.invalid('trigger of a single task cannot be periodical'),
    ...checks.times,
    ...checks.push,
    e.invalid('give at least one of name, enabled, trigger, push'),
  ],
}

export const deleteScheduleDocs: RouteDocs = {
  summary: 'Delete a task (jpush-api.md §8)',
  description: `It fires no more.${AT_BEIJING}`,
  params: id,
  answers: { 200: z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).') },
  errors: [e.notFound()],
}
