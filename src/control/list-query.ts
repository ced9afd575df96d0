import { z } from 'zod'
import { firstValue } from '../http/body/query.js'
import { readBy } from '../http/schema.js'
import { nationalMobile } from '../mobile.js'
import { invalidField } from './errors.js'

// The filters of every list of the control plane, declared once (issue 12 §6): each list picks
// those that make sense for it, and anything else in its query string is refused, naming it.

/** `limit` (1..1000, 100 when absent) and `wait` (at most 30 s) of every list. */
export const LIST_LIMITS = { defaultLimit: 100, maxLimit: 1000, maxWaitMs: 30_000 } as const

const text = (v: unknown) => firstValue(v) || undefined

/** A whole number in [min, max]; `why` says what it must be. */
export const whole = (name: string, min: number, max: number, why: string) => (v: unknown) => {
  const t = text(v)
  if (t === undefined) return undefined
  const n = /^\d{1,16}$/.test(t) ? Number(t) : Number.NaN
  if (!(n >= min && n <= max)) throw invalidField(name, `must be ${why}`)
  return n
}

/** An app-clock time: ISO-8601 (at least `yyyy-mm-dd`) or epoch milliseconds. */
export const time = (name: string) => (v: unknown) => {
  const t = text(v)
  if (t === undefined) return undefined
  const ms = /^\d{1,16}$/.test(t) ? Number(t) : /^\d{4}-\d{2}-\d{2}/.test(t) ? Date.parse(t) : Number.NaN
  if (Number.isNaN(ms)) throw invalidField(name, 'must be an ISO-8601 time or epoch milliseconds')
  return ms
}

const oneOf = (name: string, values: readonly string[]) => (v: unknown) => {
  const t = text(v)
  if (t !== undefined && !values.includes(t)) throw invalidField(name, `must be one of ${values.join(', ')}`)
  return t
}

const pathPrefix = (v: unknown) => {
  const t = text(v)
  if (t !== undefined && !t.startsWith('/')) throw invalidField('path', 'must start with /')
  return t
}

// Mobiles are stored in national form (sms/fields.ts); `+` in a query string arrives as a space.
const mobile = (v: unknown) => {
  const t = text(v)
  return t === undefined ? undefined : (nationalMobile(t) ?? t.trim())
}

// What the OpenAPI document shows of each parameter (the readers themselves cannot be shown).
const doc = (type: 'string' | 'integer', description: string, more: Record<string, unknown> = {}) => ({
  type,
  description,
  ...more,
})

/** Every filter a list may take. `kind` and `state` take the values each list names. */
const FILTERS = {
  mobile: () => readBy(mobile, doc('string', 'A mobile, national or +86 form.')),
  registration_id: () => readBy(text, doc('string', 'A device.')),
  alias: () => readBy(text, doc('string', 'The alias the device had when the push reached it.')),
  msg_id: () => readBy(text, doc('string', 'A message or push.')),
  schedule_id: () => readBy(text, doc('string', 'One schedule.')),
  kind: (values: readonly string[]) =>
    readBy(oneOf('kind', values), doc('string', 'Of this kind.', { enum: values })),
  state: (values: readonly string[]) =>
    readBy(oneOf('state', values), doc('string', 'In this state.', { enum: values })),
  // The request journal's (GET /_sandbox/requests).
  method: () => readBy(v => text(v)?.toUpperCase(), doc('string', 'Requests of this HTTP method.')),
  path: () => readBy(pathPrefix, doc('string', 'Requests whose path starts with this (`/v1/messages`).')),
  status: () =>
    readBy(
      whole('status', 100, 599, 'an HTTP status (100 to 599)'),
      doc('integer', 'Answered with this status.'),
    ),
  warning: () =>
    readBy(
      text,
      doc('string', "Requests that got the production advisor's warning of this rule; `any`: of any rule."),
    ),
  code: () =>
    readBy(
      whole('code', 0, 99_999_999, 'a whole number'),
      doc('integer', "Refused with this code (the vendor's, or the control plane's 900xx)."),
    ),
}
export type FilterName = keyof typeof FILTERS

const TIME = 'App clock: ISO-8601 (at least yyyy-mm-dd) or epoch milliseconds.'
const WINDOW = {
  since: readBy(time('since'), doc('string', `Items at or after this time. ${TIME}`)),
  until: readBy(time('until'), doc('string', `Items before this time. ${TIME}`)),
  after: readBy(
    whole('after', 0, Number.MAX_SAFE_INTEGER, 'a seq (a whole number, 0 or more)'),
    doc('integer', 'Only items with a larger seq: the `limit` right after it, newest first.', { minimum: 0 }),
  ),
  limit: readBy(
    v =>
      whole('limit', 1, LIST_LIMITS.maxLimit, `a whole number from 1 to ${LIST_LIMITS.maxLimit}`)(v) ??
      LIST_LIMITS.defaultLimit,
    doc('integer', 'How many, newest first.', { minimum: 1, maximum: LIST_LIMITS.maxLimit, default: 100 }),
  ),
  wait: readBy(
    whole('wait', 0, LIST_LIMITS.maxWaitMs, `milliseconds from 0 to ${LIST_LIMITS.maxWaitMs}`),
    doc(
      'integer',
      'When nothing matches yet: hold the request until something does, at most this long (ms).',
      {
        minimum: 0,
        maximum: LIST_LIMITS.maxWaitMs,
      },
    ),
  ),
}

/** Refuses a parameter the route does not take: a typo must not silently widen the answer. */
export function onlyKnown(known: readonly string[]) {
  return (value: unknown, ctx: z.RefinementCtx) => {
    const given = value !== null && typeof value === 'object' ? Object.keys(value) : []
    const unknown = given.find(k => !known.includes(k))
    if (unknown !== undefined) {
      const answer = invalidField(unknown, `is not a parameter of this route (it takes ${known.join(', ')})`)
      ctx.addIssue({ code: 'custom', message: answer.message, params: { answer } })
    }
    return value
  }
}

/** What a list's handler gets: its filters as text (the mobile in national form), times in ms. */
export type ListQuery<F extends FilterName> = {
  [K in F]?: K extends 'status' | 'code' ? number | undefined : string | undefined
} & {
  since?: number | undefined
  until?: number | undefined
  after?: number | undefined
  limit: number
  wait?: number | undefined
}

/**
 * The query schema of a list taking the filters `filters` (with the values of `kind` and `state`
 * where it takes them), plus since, until, after, limit and wait; `single`: one item is answered
 * (codes/latest), so no `limit`; `token`: the events' (events.ts); `seq: false`: its items have
 * no seq (push schedules), so no `after` and no `wait`.
 */
export function listQuery<F extends FilterName>(
  filters: readonly F[],
  values: { kind?: readonly string[]; state?: readonly string[] } = {},
  { single = false, token = false, seq = true } = {},
) {
  const shape: Record<string, z.ZodType> = { ...WINDOW }
  if (!seq) {
    delete shape.after
    delete shape.wait
  }
  if (single) delete shape.limit
  for (const f of filters) shape[f] = FILTERS[f](values[f as 'kind' | 'state'] ?? [])
  if (token)
    shape.token = readBy(
      text,
      doc('string', 'From POST /_sandbox/events/token, instead of Basic credentials.'),
    )
  return z.preprocess(onlyKnown(Object.keys(shape)), z.object(shape)) as unknown as z.ZodType<
    ListQuery<F> & { token?: string | undefined }
  >
}
