import { z } from 'zod'
import { isApiError } from '../../errors.js'
import { isAbsent } from '../../http/body/fields.js'
import { part } from '../../http/reads.js'
import { parsePush, payload } from '../send/index.js'
import { byteLength, isObject, type Json } from '../values.js'
import { checkTrigger, parseTrigger, type Trigger, triggerSection } from './occurrences.js'
import { SCHEDULE_LIMITS, scheduleErrors } from './rules.js'

// Bodies of POST and PUT /v3/schedules (jpush-api.md §8; docs2019): four sections, name, enabled,
// trigger and push, each read whole, and a new task's cid. Anything wrong is 8100, its message
// saying what. Each section is declared with what the document shows of it and what it refuses.

const invalid = scheduleErrors.invalid

/** Letters, digits, `_` and Chinese characters, at most 255 bytes (docs2019). */
const NAME = /^[A-Za-z0-9_\p{Script=Han}]+$/u

export interface TriggerSection {
  /** As the client sent it: GET shows it back. */
  raw: Json
  parsed: Trigger
}

export interface ScheduleSections {
  name?: string
  enabled?: boolean
  trigger?: TriggerSection
  push?: Json
}

export interface NewSchedule extends Required<ScheduleSections> {
  cid: string | undefined
}

export function readName(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalid('name must be a non-empty string')
  if (byteLength(value) > SCHEDULE_LIMITS.nameBytes)
    throw invalid(`name is longer than ${SCHEDULE_LIMITS.nameBytes} bytes`)
  if (!NAME.test(value)) throw invalid('name may hold only letters, digits, _ and Chinese characters')
  return value
}

function readEnabled(value: unknown): boolean {
  if (typeof value !== 'boolean') throw invalid('enabled must be true or false')
  return value
}

/** `kind`: what a PUT's trigger must stay (docs2019: no switching single ↔ periodical). */
export function readTrigger(value: unknown, now: number, kind?: Trigger['kind']): TriggerSection {
  const parsed = parseTrigger(value)
  if (kind !== undefined && parsed.kind !== kind)
    throw invalid(`trigger of a ${kind} task cannot be ${parsed.kind}`)
  checkTrigger(parsed, now)
  return { raw: value as Json, parsed }
}

/**
 * A valid push as POST /v3/push reads it (same checks, same order); its own `cid` is ignored
 * (docs2019: the task's cid is at the top level), so it is dropped. A refusal is 8100 naming the
 * push API's code and message.
 */
export function readPush(value: unknown, appKey: string): Json {
  if (!isObject(value)) throw invalid('push section is invalid')
  const { cid: _ignored, ...push } = value
  try {
    parsePush(push, appKey)
  } catch (err) {
    if (!isApiError(err)) throw err
    throw invalid(`push section is invalid: ${err.code} ${err.message}`)
  }
  return push
}

// `<appKey>-<uuid>`, as GET /v3/push/cid?type=schedule hands them out (jpush-api.md §5.10).
const CID = /^([A-Za-z0-9]{24})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

function readCid(value: unknown, appKey: string): string | undefined {
  if (isAbsent(value)) return undefined
  const m = typeof value === 'string' ? CID.exec(value) : null
  if (!m || m[1] !== appKey) throw invalid('cid is invalid')
  return value as string
}

/** A new task: all four sections, enabled (a task cannot be created disabled). */
function readNewSchedule(body: unknown, appKey: string, now: number): NewSchedule {
  if (!isObject(body)) throw invalid('request data is not a JSON object')
  const cid = readCid(body.cid, appKey)
  for (const section of ['name', 'enabled', 'trigger', 'push'])
    if (isAbsent(body[section])) throw invalid(`${section} is required`)
  const name = readName(body.name)
  if (!readEnabled(body.enabled)) throw invalid('a new task must be enabled')
  const trigger = readTrigger(body.trigger, now)
  const push = readPush(body.push, appKey)
  return { cid, name, enabled: true, trigger, push }
}

/**
 * A PUT: one or more whole sections (no partial update inside one), checked as on creation. A
 * single task stays single and a periodical one periodical.
 */
function readScheduleUpdate(
  body: unknown,
  appKey: string,
  now: number,
  kind: Trigger['kind'],
): ScheduleSections {
  if (!isObject(body)) throw invalid('request data is not a JSON object')
  const out: ScheduleSections = {}
  if (!isAbsent(body.name)) out.name = readName(body.name)
  if (!isAbsent(body.enabled)) out.enabled = readEnabled(body.enabled)
  if (!isAbsent(body.trigger)) out.trigger = readTrigger(body.trigger, now, kind)
  if (!isAbsent(body.push)) out.push = readPush(body.push, appKey)
  if (Object.keys(out).length === 0) throw invalid('give at least one of name, enabled, trigger, push')
  return out
}

// What the document shows of each section, beside what it refuses, in the order it is checked.

const taskPush = payload({ cid: false })
export const taskSections = {
  cid: {
    schema: z.string().describe('`<appKey>-<uuid>` from GET /v3/push/cid?type=schedule.').optional(),
    errors: [invalid('cid is invalid')],
  },
  name: {
    schema: z
      .string()
      .max(SCHEDULE_LIMITS.nameBytes)
      .describe(`Letters, digits, \`_\` and Chinese characters; at most ${SCHEDULE_LIMITS.nameBytes} bytes.`),
    errors: [
      invalid('name must be a non-empty string'),
      invalid(`name is longer than ${SCHEDULE_LIMITS.nameBytes} bytes`),
      invalid('name may hold only letters, digits, _ and Chinese characters'),
    ],
  },
  enabled: { schema: z.boolean(), errors: [invalid('enabled must be true or false')] },
  trigger: triggerSection,
  push: {
    ...payload({ cid: false }),
    schema: payload({ cid: false }).schema.describe(
      'A /v3/push body (§5), checked as /v3/push checks it; its own `cid` is ignored.',
    ),
    errors: [invalid('push section is invalid: 1002 Missing parameter: audience')],
  },
}
const notObject = invalid('request data is not a JSON object')
// override_msg_id is a long (jpush-api.md §5.7): read exactly inside a task's push too.
const exactIntegers = taskPush.exactIntegers.map(path => `push.${path}`)

/** The body of POST /v3/schedules, read at the app's `now`. */
export const newTask = part({
  in: 'body',
  read: (req, now: number) => readNewSchedule(req.body, req.tenant.app.appKey, now),
  schema: z.object({
    cid: taskSections.cid.schema,
    name: taskSections.name.schema,
    enabled: z.literal(true).describe('A new task must be enabled.'),
    trigger: taskSections.trigger.schema,
    push: taskSections.push.schema,
  }),
  errors: [
    notObject,
    ...taskSections.cid.errors,
    invalid('trigger is required'),
    ...taskSections.name.errors,
    ...taskSections.enabled.errors,
    invalid('a new task must be enabled'),
    ...taskSections.trigger.shape,
    ...taskSections.trigger.times,
    ...taskSections.push.errors,
  ],
  exactIntegers,
})

/** The body of PUT /v3/schedules/{id}, read at the app's `now` for a task of `kind`. */
export const taskChanges = part({
  in: 'body',
  read: (req, now: number, kind: Trigger['kind']) =>
    readScheduleUpdate(req.body, req.tenant.app.appKey, now, kind),
  schema: z
    .object({
      name: taskSections.name.schema,
      enabled: taskSections.enabled.schema,
      trigger: taskSections.trigger.schema,
      push: taskSections.push.schema,
    })
    .partial(),
  errors: [
    notObject,
    ...taskSections.name.errors,
    ...taskSections.enabled.errors,
    ...taskSections.trigger.shape,
    invalid('trigger of a single task cannot be periodical'),
    ...taskSections.trigger.times,
    ...taskSections.push.errors,
    invalid('give at least one of name, enabled, trigger, push'),
  ],
  exactIntegers,
})
