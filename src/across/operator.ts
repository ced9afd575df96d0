import { z } from 'zod'
import type { Clock } from '../clock.js'
import { invalidField, sandboxErrors } from '../control/errors.js'
import { LIST_LIMITS, onlyKnown, time, whole } from '../control/list-query.js'
import { waitErrors } from '../control/list-route.js'
import type { Hub } from '../events/hub.js'
import { firstValue } from '../http/body/query.js'
import type { RouteSpec } from '../http/routes.js'
import { readBy, schemaRoute } from '../http/schema.js'
import type { AppActivity } from '../store/apps/activity.js'
import { ALL_APPS } from '../store/events/requests.js'
import type { Store } from '../store/index.js'
import { iso, isoOrNull } from '../time.js'

// The operator's view of every app (SANDBOX_OPERATOR: http/auth/operator.ts): which apps the
// sandbox holds, which were active last, what each did. Any one of them is then opened with the
// operator's credentials and `X-Sandbox-App: <appKey>` on every other control-plane route.

const doc = (type: 'string' | 'integer', description: string, more: Record<string, unknown> = {}) => ({
  type,
  description,
  ...more,
})

const prefix = (v: unknown) => {
  const t = firstValue(v) || undefined
  if (t !== undefined && !/^[A-Za-z0-9]{1,24}$/.test(t))
    throw invalidField('prefix', 'must be 1 to 24 letters or digits')
  return t
}

const activity = (name: string, why: string) =>
  readBy(
    whole(name, 0, Number.MAX_SAFE_INTEGER, 'an activity (a whole number, 0 or more)'),
    doc('integer', why),
  )

const REAL = 'Real time: ISO-8601 (at least yyyy-mm-dd) or epoch milliseconds.'
const query = z.preprocess(
  onlyKnown(['prefix', 'active_since', 'active_until', 'after', 'before', 'limit', 'wait']),
  z.object({
    prefix: readBy(prefix, doc('string', 'Apps whose appKey starts with this.')),
    active_since: readBy(time('active_since'), doc('string', `Last request at or after this time. ${REAL}`)),
    active_until: readBy(time('active_until'), doc('string', `Last request before this time. ${REAL}`)),
    after: activity('after', 'Only apps active since this `activity` (`next_after` of an earlier answer).'),
    before: activity(
      'before',
      'Only apps last active before this `activity`: the next page (`next_before`).',
    ),
    limit: readBy(
      v =>
        whole('limit', 1, LIST_LIMITS.maxLimit, `a whole number from 1 to ${LIST_LIMITS.maxLimit}`)(v) ??
        LIST_LIMITS.defaultLimit,
      doc('integer', 'How many, most recently active first.', { minimum: 1, maximum: 1000, default: 100 }),
    ),
    wait: readBy(
      whole('wait', 0, LIST_LIMITS.maxWaitMs, `milliseconds from 0 to ${LIST_LIMITS.maxWaitMs}`),
      doc('integer', 'With `after`: when no app was active since, hold the request until one is (ms).', {
        minimum: 0,
        maximum: LIST_LIMITS.maxWaitMs,
      }),
    ),
  }),
)

const count = z.number()
export const appItem = z.object({
  app_key: z.string(),
  /** When the app was made (auto-provisioned, seeded, imported…). */
  created_at: z.string(),
  /** Real time of its last journaled request; null: none yet. */
  last_request_at: z.string().nullable(),
  /** The order of the apps' latest activity: larger is more recent (`after`, `before`). */
  activity: z.number(),
  counts: z.object({ texts: count, pushes: count, devices: count, requests: count, refusals: count }),
  /** Its newest journaled request (GET /_sandbox/requests has it all); null: none kept. */
  last_request: z
    .object({
      seq: z.number(),
      method: z.string(),
      path: z.string(),
      status: z.number(),
      code: z.number().nullable(),
      message: z.string().nullable(),
    })
    .nullable(),
  clock: z.object({ now: z.number(), offset_ms: z.number() }),
})
export const appsAnswer = z.object({
  apps: z.array(appItem),
  /** The largest `activity` the answer covers: `after=` it reads what becomes active next. */
  next_after: z.number(),
  /** The smallest `activity` of the page: `before=` it reads the next page; null: none shown. */
  next_before: z.number().nullable(),
})

export type AppItem = z.input<typeof appItem>

const APPS_DOC = `Every app the sandbox holds, the most recently active first (made, or a request journaled:
\`activity\` orders them), with its counts of texts, pushes, devices, requests and refusals (requests and
refusals since its last reset), its newest journaled request (\`last_request\`: its seq, method, path, status,
code and message) and its clock. \`prefix\` filters by appKey, \`active_since\`/\`active_until\` by the
real time of the last request. \`before=<next_before>\` reads the next page; \`after=<next_after>\` reads the apps
active since, and with \`wait=<ms>\` holds the request until one is (the live view of a UI).

Only the operator's credentials (SANDBOX_OPERATOR, \`operator:operator\` unless set, \`off\` for none) may
list the apps; they then act on any one of them on every other route of the control plane with
\`X-Sandbox-App: <appKey>\`, never on /v1 or /v3.`

/** GET /_sandbox/apps: the operator's list of every app. */
export function operatorRoutes(deps: { store: Store; hub: Hub; clock: Clock }): RouteSpec[] {
  const { store, hub, clock } = deps
  const view = (a: AppActivity): AppItem => ({
    app_key: a.appKey,
    created_at: iso(a.createdAt),
    last_request_at: isoOrNull(a.lastRequestAt),
    activity: a.activity,
    counts: {
      texts: a.texts,
      pushes: a.pushes,
      devices: a.devices,
      requests: a.requests,
      refusals: a.refusals,
    },
    last_request: a.lastRequest,
    clock: { now: clock.now() + a.clockOffsetMs, offset_ms: a.clockOffsetMs },
  })
  return [
    schemaRoute({
      method: 'GET',
      url: '/apps',
      config: { auth: 'operator' },
      docs: {
        summary: 'Every app, the most recently active first (the operator only)',
        description: APPS_DOC,
        errors: [
          sandboxErrors.invalidField('"prefix": must be 1 to 24 letters or digits'),
          sandboxErrors.operatorOnly(),
          ...waitErrors,
        ],
      },
      schema: { querystring: query, response: { 200: appsAnswer } },
      handler: async (req, reply) => {
        const { prefix, active_since, active_until, after, before, limit, wait } = req.query
        const filter = { prefix, activeSince: active_since, activeUntil: active_until, after, before, limit }
        const read = () => {
          const found = store.activity.list(filter)
          return found.length > 0 ? found : undefined
        }
        let found = read()
        if (found === undefined && wait && after !== undefined)
          found =
            (await hub.waitFor({ appKey: ALL_APPS, client: req.ip }, 'requests', wait, reply.raw, read)) ??
            read()
        const apps = found ?? []
        return {
          apps: apps.map(view),
          next_after: Math.max(apps[0]?.activity ?? 0, after ?? store.activity.current()),
          next_before: apps.at(-1)?.activity ?? null,
        }
      },
    }),
  ]
}
