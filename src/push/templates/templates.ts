import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { audienceRules } from '../../advisor/audience.js'
import { scheduleRules } from '../../advisor/schedule.js'
import type { PipelineDeps } from '../../deps.js'
import { isApiError } from '../../errors.js'
import { part } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Store } from '../../store/index.js'
import type { Tenant } from '../../tenancy.js'
import { pushErrors as e } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import {
  createTask,
  readName,
  readPush,
  readTrigger,
  scheduleSubject,
  type TriggerSection,
  taskSections,
} from '../schedules/index.js'
import { type Audience, dispatchPush, parseAudience, parsePush, readFileAudience } from '../send/index.js'
import { isObject, type Json, scalarText } from '../values.js'
import { render } from './render.js'
import type { PushTemplate } from './table.js'

// Template push (docs/jpush-wire.md "Push templates"; jsdk PushClient.templateSend, cav
// push/v3_template_send.go and schedule/v3_template_send.go): `{"id", "params": [{audience, keys,
// options?, trace_id?}…]}`, one push (or one scheduled task) per entry of `params`, each the
// template filled with its keys. What is wrong with the request as a whole (the template, the
// audiences together) is its error; what refuses one push is only its entry of `push_list`
// (`schedule_list`): `{"code","message","trace_id"}`, as jsdk TemplateResult reads them.

/** "params 数组里面…": the kinds of audience, tag, tag_and and tag_not being one kind. */
type AudienceKind =
  | 'all'
  | 'registration_id'
  | 'alias'
  | 'tag'
  | 'segment'
  | 'abtest'
  | 'file'
  | 'live_activity_id'
const kindOfKey = (key: string): AudienceKind => (key.startsWith('tag') ? 'tag' : (key as AudienceKind))

export interface TemplateParam {
  audience: unknown
  keys: Record<string, string>
  options: Json | undefined
  traceId: string | undefined
}

interface TemplateRequest {
  id: string
  params: TemplateParam[]
}

/** The kind of one entry's audience; two kinds in one audience are refused. */
function kindOf(audience: unknown, at: string): AudienceKind {
  if (audience === 'all') return 'all'
  if (isObject(audience) && Object.keys(audience).length === 1 && isObject(audience.file)) return 'file'
  const parsed = parseAudience(audience)
  if (parsed === 'all') return 'all'
  const kinds = new Set(Object.keys(parsed).map(kindOfKey))
  if (kinds.size > 1) throw e.invalid(`${at}.audience mixes ${[...kinds].join(' and ')}: one kind per push`)
  return [...kinds][0]!
}

function readKeys(value: unknown, at: string): Record<string, string> {
  if (value === undefined || value === null) return {}
  if (!isObject(value)) throw e.invalid(`${at}.keys must be an object`)
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(value)) {
    const text = scalarText(v)
    if (text === undefined) throw e.invalid(`${at}.keys.${k} must be a string`)
    out[k] = text
  }
  return out
}

/**
 * The body: a template id, then 1 to 1000 entries whose audiences are all of one kind (tag,
 * tag_and and tag_not together); "all", a tag audience, a segment or a file: one entry only;
 * registration_ids and aliases: at most 1000 in all the entries together.
 */
function readTemplateRequest(raw: unknown): TemplateRequest {
  if (raw === undefined || raw === null) throw e.missing('id')
  if (!isObject(raw)) throw e.invalid('The request body must be a JSON object')
  if (raw.id === undefined || raw.id === null || raw.id === '') throw e.missing('id')
  if (typeof raw.id !== 'string') throw e.invalid('id must be a string')
  if (raw.params === undefined || raw.params === null) throw e.missing('params')
  if (!Array.isArray(raw.params) || raw.params.length === 0)
    throw e.invalid('params must be a non-empty array')
  if (raw.params.length > PUSH_LIMITS.audienceIds)
    throw e.invalid(`params has more than ${PUSH_LIMITS.audienceIds} entries`)
  const kinds = new Set<AudienceKind>()
  const ids = { registration_id: 0, alias: 0 }
  const params = raw.params.map((p: unknown, i): TemplateParam => {
    const at = `params[${i}]`
    if (!isObject(p)) throw e.invalid(`${at} must be an object`)
    if (p.audience === undefined || p.audience === null) throw e.missing(`${at}.audience`)
    const kind = kindOf(p.audience, at)
    kinds.add(kind)
    if (kind === 'registration_id' || kind === 'alias')
      ids[kind] += ((p.audience as Json)[kind] as unknown[]).length
    if (p.options !== undefined && p.options !== null && !isObject(p.options))
      throw e.invalid(`${at}.options must be an object`)
    if (p.trace_id !== undefined && p.trace_id !== null && typeof p.trace_id !== 'string')
      throw e.invalid(`${at}.trace_id must be a string`)
    return {
      audience: p.audience,
      keys: readKeys(p.keys, at),
      options: isObject(p.options) ? p.options : undefined,
      traceId: typeof p.trace_id === 'string' ? p.trace_id : undefined,
    }
  })
  if (kinds.size > 1)
    throw e.invalid(`the audiences of params are of different kinds: ${[...kinds].join(', ')}`)
  const [kind] = kinds
  if (
    params.length > 1 &&
    (kind === 'all' || kind === 'tag' || kind === 'segment' || kind === 'abtest' || kind === 'file')
  )
    throw e.invalid(`an audience of ${kind === 'all' ? '"all"' : kind} allows one entry of params only`)
  for (const key of ['registration_id', 'alias'] as const)
    if (ids[key] > PUSH_LIMITS.audienceIds)
      throw e.invalid(`params name more than ${PUSH_LIMITS.audienceIds} ${key}s in all`)
  return { id: raw.id, params }
}

const paramSchema = z.object({
  audience: z
    .union([z.literal('all'), z.record(z.string(), z.unknown())])
    .describe('This push’s audience (a /v3/push audience, or `{"file":{"file_id"}}`).'),
  keys: z.record(z.string(), z.string()).describe('A value for each of the template’s variables.').optional(),
  options: z
    .record(z.string(), z.unknown())
    .describe('Over the template’s options (test_model, time_to_live…).')
    .optional(),
  trace_id: z.string().describe('Echoed in this push’s entry of the answer.').optional(),
})

const requestErrors = [
  e.missing('id'),
  e.invalid('The request body must be a JSON object'),
  e.invalid('id must be a string'),
  e.missing('params'),
  e.invalid('params must be a non-empty array'),
  e.missing('params[0].audience'),
  e.invalid('params[0].audience mixes registration_id and alias: one kind per push'),
  e.invalid('the audiences of params are of different kinds: registration_id, alias'),
  e.invalid('an audience of "all" allows one entry of params only'),
  e.invalid(`params name more than ${PUSH_LIMITS.audienceIds} registration_ids in all`),
]

const templateBody = part({
  in: 'body',
  read: req => readTemplateRequest(req.body),
  schema: z.object({ id: z.string().describe('The template’s id.'), params: z.array(paramSchema).min(1) }),
  errors: requestErrors,
})

/** The schedule variant adds the task's name and trigger, read as the Schedule API reads them. */
const scheduleTemplateBody = part({
  in: 'body',
  read(req, now: number): TemplateRequest & { name: string; trigger: TriggerSection } {
    const request = readTemplateRequest(req.body)
    const raw = req.body as Json
    if (raw.schedule_name === undefined || raw.schedule_name === null) throw e.missing('schedule_name')
    if (raw.trigger === undefined || raw.trigger === null) throw e.missing('trigger')
    return { ...request, name: readName(raw.schedule_name), trigger: readTrigger(raw.trigger, now) }
  },
  schema: z.object({
    id: z.string(),
    params: z.array(paramSchema).min(1),
    schedule_name: taskSections.name.schema,
    trigger: taskSections.trigger.schema,
  }),
  errors: [
    ...requestErrors,
    e.missing('schedule_name'),
    e.missing('trigger'),
    ...taskSections.name.errors,
    ...taskSections.trigger.shape,
    ...taskSections.trigger.times,
  ],
})

/** One entry of push_list / schedule_list (jsdk TemplateResult: code, message, message_id, schedule_id, trace_id). */
const entry = z.object({
  code: z.int().describe('0, or the /v3/push code that refused this push.'),
  message: z.string(),
  message_id: z.string().describe('The msg_id of this push (also with 1011: nobody matched).').optional(),
  schedule_id: z.string().optional(),
  trace_id: z.string().optional(),
})
type Entry = z.input<typeof entry>

const answer = (list: 'push_list' | 'schedule_list') =>
  z.object({ code: z.literal(0), message: z.literal('success'), data: z.object({ [list]: z.array(entry) }) })

/** The template of the app, or 1003. */
function templateOf(store: Store, appKey: string, id: string): PushTemplate {
  const template = store.pushTemplates.get(appKey, id)
  if (!template) throw e.unknownTemplate(id)
  return template
}

/**
 * The push body of one entry: the template filled with its keys (every variable given, or 1003),
 * its audience, and its options over the template's.
 */
function bodyOf(template: PushTemplate, p: TemplateParam, at: string): Json {
  const missing = template.params.filter(name => p.keys[name] === undefined)
  if (missing.length > 0) throw e.missing(`${at}.keys.${missing[0]} (the template's {{${missing[0]}}})`)
  const push = render(template.push, p.keys) as Json
  const options = { ...(isObject(push.options) ? push.options : {}), ...p.options }
  return { ...push, audience: p.audience, ...(Object.keys(options).length > 0 ? { options } : {}) }
}

/** An entry's own failure: its code and message, and its trace_id. */
function refused(err: unknown, traceId: string | undefined): Entry {
  if (!isApiError(err)) throw err
  const msgId = typeof err.extra.msg_id === 'string' ? { message_id: err.extra.msg_id } : {}
  return { code: err.code, message: err.message, ...msgId, ...(traceId ? { trace_id: traceId } : {}) }
}

export function templatePushRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps

  /** One entry pushed now, in its own savepoint: its failure is its entry only. */
  const pushEntry = (
    req: FastifyRequest,
    tenant: Tenant,
    template: PushTemplate,
    p: TemplateParam,
    i: number,
  ): Entry => {
    const trace = p.traceId ? { trace_id: p.traceId } : {}
    try {
      const { appKey } = tenant.app
      const now = tenant.now()
      const body = bodyOf(template, p, `params[${i}]`)
      const readAudience = (value: unknown): Audience =>
        isObject(value) && isObject(value.file)
          ? readFileAudience(value, id => {
              const file = store.pushFiles.get(appKey, id, now)
              if (!file) return undefined
              if (file.type === 'alias') return { alias: file.entries }
              return { registration_id: file.entries.filter(rid => store.pushDevices.get(appKey, rid)) }
            })
          : parseAudience(value)
      const push = parsePush(body, appKey, readAudience)
      const outcome = store.transaction(() => dispatchPush(deps, tenant, push, false))
      if (outcome.noTarget) throw e.noTarget(outcome.msgId)
      // Whom this entry's push reached (advisor/audience.ts): warnings only, on the one request.
      if (outcome.seen) advise(req, deps.config, audienceRules, outcome.seen)
      return { code: 0, message: 'success', message_id: outcome.msgId, ...trace }
    } catch (err) {
      return refused(err, p.traceId)
    }
  }

  /** One entry made a scheduled task (its push checked as POST /v3/schedules checks one). */
  const scheduleEntry = (
    tenant: Tenant,
    template: PushTemplate,
    p: TemplateParam,
    i: number,
    task: { name: string; trigger: TriggerSection },
    now: number,
  ): Entry => {
    const trace = p.traceId ? { trace_id: p.traceId } : {}
    try {
      const push = readPush(bodyOf(template, p, `params[${i}]`), tenant.app.appKey)
      const made = store.transaction({ announces: ['schedule.changed'] }, () =>
        createTask(
          store,
          tenant.app,
          { cid: undefined, name: task.name, enabled: true, trigger: task.trigger, push },
          now,
        ),
      )
      return { code: 0, message: 'success', schedule_id: made.schedule_id, ...trace }
    } catch (err) {
      return refused(err, p.traceId)
    }
  }

  // jiguang-sdk-java reads every refusal of these two as a flat TemplateResult, {code, message}
  // (codec/ApiErrorDecoder.java:38-49); the nested envelope reaches it as 500 "unknown error".
  const flat = { errorShape: 'flat' as const }
  const VIP =
    'VIP-only at the vendor; every app may use it here. Templates: the seed file or `PUT /_sandbox/push/templates/{id}`.'
  return [
    vendorRoute({
      method: 'POST',
      url: '/push/template',
      config: flat,
      summary: 'Push a template, once per entry of params (docs/jpush-wire.md "Push templates")',
      description:
        'Each entry is the template with its `keys` filled in, its `audience` and its `options` over the ' +
        'template’s: a /v3/push like any other (checks, delivery, statistics, callbacks). What refuses one ' +
        `push is only its entry of \`push_list\`. ${VIP}`,
      reads: { body: templateBody },
      checks: [e.unknownTemplate('c65b34b96512')],
      answer: answer('push_list'),
      handler: async (req, { body }) => {
        const { tenant } = req
        const push_list = await store.write(() => {
          const template = templateOf(store, tenant.app.appKey, body.id)
          return body.params.map((p, i) => pushEntry(req, tenant, template, p, i))
        })
        return { code: 0 as const, message: 'success' as const, data: { push_list } }
      },
    }),
    vendorRoute({
      method: 'POST',
      url: '/push/template/schedule',
      config: flat,
      summary: 'Schedule a template, one task per entry of params (docs/jpush-wire.md "Push templates")',
      description:
        '`schedule_name` and `trigger` as POST /v3/schedules reads them (8100 when wrong); each entry becomes a ' +
        `task of the Schedule API, firing the filled-in template. ${VIP}`,
      checks: [scheduleTemplateBody, e.unknownTemplate('c65b34b96512')],
      answer: answer('schedule_list'),
      handler: async req => {
        const { tenant } = req
        const now = tenant.now()
        const body = scheduleTemplateBody.read(req, now)
        advise(req, deps.config, scheduleRules, scheduleSubject(body.trigger.parsed, now))
        const schedule_list = await store.write(() => {
          const template = templateOf(store, tenant.app.appKey, body.id)
          return body.params.map((p, i) => scheduleEntry(tenant, template, p, i, body, now))
        })
        return { code: 0 as const, message: 'success' as const, data: { schedule_list } }
      },
    }),
  ]
}
