import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import { firstValue } from '../../http/body/query.js'
import { field, jsonBody, type ObjectReader, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { formatLocal } from '../../time.js'
import { pushErrors as e } from '../errors.js'
import { isPlanName } from '../send/index.js'
import { isObject } from '../values.js'
import type { PushPlan, SendSource } from './table.js'

// Push plans (docs/jpush-wire.md "Push plans"; cav push/v3_*_plan*.go, the vendor's
// rest_api_v3_push_plan): a name a push gives in `options.business_operation_code`, so that its
// pushes are counted together. These routes answer `{"code","message"}` at the top level, their
// failures too (cav reads exactly that shape: PlanCreateResult embeds the code and message).

export const PLAN_LIMITS = {
  /** "最多允许创建 1000 个计划". */
  perApp: 1000,
  /** The sandbox's: the vendor sets no limit ("系统不做强制限制"). */
  descriptionChars: 1000,
  /** "page 和 page_size 不传取默认值（默认为 1 和 50）". */
  defaultPageSize: 50,
  maxPageSize: 1000,
} as const

/** What the plan limit refuses, wherever a plan is made. */
export const PLAN_LIMIT_MESSAGE = `an app has at most ${PLAN_LIMITS.perApp} push plans`

/**
 * Makes a plan if the app has room for one: the one place the plan limit is checked, for the
 * vendor's route and the console's (src/sandbox/push/plans.ts), each refusing in its own envelope.
 * Inside a write job.
 */
export function insertPlan(
  store: Pick<PipelineDeps['store'], 'pushPlans'>,
  plan: Parameters<PipelineDeps['store']['pushPlans']['insert']>[0],
  refuse: (message: string) => Error,
): void {
  if (store.pushPlans.count(plan.appKey) >= PLAN_LIMITS.perApp) throw refuse(PLAN_LIMIT_MESSAGE)
  store.pushPlans.insert(plan)
}

const flat = { errorShape: 'flat' as const }
const success = { code: 0 as const, message: 'success' as const }
const ok = z.object({ code: z.literal(0), message: z.literal('success') })

const planObject: ObjectReader = {
  read(body) {
    if (body === undefined || body === null) throw e.missing('name')
    if (!isObject(body)) throw e.invalid('The request body must be a JSON object')
    return body
  },
  errors: [e.missing('name'), e.invalid('The request body must be a JSON object')],
}

const name = field({
  read(value): string {
    if (value === undefined || value === null || value === '') throw e.missing('name')
    if (!isPlanName(value))
      throw e.invalid('name is invalid: letters, digits and _, not starting with _, at most 50 characters')
    return value
  },
  schema: z.string().max(50).describe('The plan: letters, digits and `_`, not starting with `_`.'),
  errors: [e.invalid('name is invalid: letters, digits and _, not starting with _, at most 50 characters')],
})

const description = field({
  read(value): string {
    if (value === undefined || value === null) return ''
    if (typeof value !== 'string') throw e.invalid('description must be a string')
    if ([...value].length > PLAN_LIMITS.descriptionChars)
      throw e.invalid(`description is longer than ${PLAN_LIMITS.descriptionChars} characters`)
    return value
  },
  schema: z.string().describe('What the plan is for.').optional(),
  errors: [e.invalid('description must be a string')],
})

const planBody = jsonBody(planObject, { name, description })

const page = (key: string, fallback: number, max: number) =>
  field({
    read(value): number {
      const text = firstValue(value) ?? ''
      if (text === '' || text === '0') return fallback
      if (!/^\d{1,9}$/.test(text) || Number(text) > max) throw e.invalid(`${key} is invalid`)
      return Number(text)
    },
    schema: z.string().describe(`1 to ${max}; ${fallback} when absent.`).optional(),
    errors: [e.invalid(`${key} is invalid`)],
  })

/** `send_source`: 0 API, 1 web; "不传或者非0和1值表示不区分". */
const sendSource = field({
  read: (value): SendSource | undefined => {
    const text = firstValue(value)
    return text === '0' ? 0 : text === '1' ? 1 : undefined
  },
  schema: z
    .string()
    .describe('0: created through the API; 1: in the console (here: seed file, control plane).')
    .optional(),
  errors: [],
})

const info = field({
  read: value => firstValue(value) || undefined,
  schema: z.string().describe('Part of the name or of the description.').optional(),
  errors: [],
})

const listAnswer = ok.extend({
  data: z.object({
    total: z.int(),
    page: z.int(),
    page_size: z.int(),
    detail: z.array(
      z.object({
        name: z.string(),
        description: z.string(),
        push_count: z.int().describe('Pushes that named it in options.business_operation_code.'),
        create_time: z.string().describe('`yyyy-MM-dd HH:mm:ss`'),
        last_used_time: z.string().describe('`yyyy-MM-dd HH:mm:ss` of its latest push; "" before the first.'),
        send_source: z.int(),
      }),
    ),
  }),
})

export function planRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  const time = (ms: number | null) => (ms === null ? '' : formatLocal(ms, config.timeZone))
  const view = (p: PushPlan) => ({
    name: p.name,
    description: p.description,
    push_count: p.pushCount,
    create_time: time(p.createdAt),
    last_used_time: time(p.lastUsedAt),
    send_source: p.sendSource,
  })
  return [
    vendorRoute({
      method: 'POST',
      url: '/push_plan/create',
      summary: 'Create a push plan (docs/jpush-wire.md "Push plans")',
      description: `At most ${PLAN_LIMITS.perApp} plans per app. Failures answer \`{"code","message"}\` too.`,
      config: flat,
      reads: { body: planBody },
      checks: [e.invalid('push plan spring_sale already exists'), e.invalid(PLAN_LIMIT_MESSAGE)],
      answer: ok,
      handler: async (req, { body }) => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        await store.write(() => {
          if (store.pushPlans.exists(appKey, body.name))
            throw e.invalid(`push plan ${body.name} already exists`)
          insertPlan(
            store,
            { appKey, name: body.name, description: body.description, sendSource: 0, createdAt: now },
            e.invalid,
          )
        })
        return success
      },
    }),
    vendorRoute({
      method: 'PUT',
      url: '/push_plan/update',
      summary: 'Change a push plan\'s description (docs/jpush-wire.md "Push plans")',
      config: flat,
      reads: { body: planBody },
      checks: [e.invalid('push plan spring_sale does not exist')],
      answer: ok,
      handler: async (req, { body }) => {
        const { appKey } = req.tenant.app
        await store.write(() => {
          if (!store.pushPlans.describe(appKey, body.name, body.description))
            throw e.invalid(`push plan ${body.name} does not exist`)
        })
        return success
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/push_plan/list',
      summary: 'The app\'s push plans and their pushes, newest first (docs/jpush-wire.md "Push plans")',
      config: flat,
      reads: {
        query: query({
          page: page('page', 1, 1_000_000),
          page_size: page('page_size', PLAN_LIMITS.defaultPageSize, PLAN_LIMITS.maxPageSize),
          info,
          send_source: sendSource,
        }),
      },
      answer: listAnswer,
      handler: async (req, { query }) => {
        const { total, plans } = store.pushPlans.page(
          req.tenant.app.appKey,
          { info: query.info, sendSource: query.send_source },
          query.page,
          query.page_size,
        )
        return {
          ...success,
          data: { total, page: query.page, page_size: query.page_size, detail: plans.map(view) },
        }
      },
    }),
  ]
}
