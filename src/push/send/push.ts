import { randomUUID } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { audienceRules, audienceRulesApply } from '../../advisor/audience.js'
import { pushRules, pushRulesApply } from '../../advisor/push.js'
import type { PipelineDeps } from '../../deps.js'
import { field, params, part, query, text } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { App } from '../../store/apps/apps.js'
import { dayKey } from '../../time.js'
import { pushErrors as e } from '../errors.js'
import { mediaErrors } from '../images/index.js'
import { PUSH_LIMITS } from '../limits.js'
import { isObject } from '../values.js'
import { parseAudience } from './audience.js'
import { sendPush } from './delivery/dispatch.js'
import { quotaToday } from './delivery/route.js'
import type { QuotaVendor } from './delivery/vendor-quota-table.js'
import { type PushRequest, parsePush, payload, sent, strictness } from './payload.js'
import { isSm2, parseSm2Push, sm2Errors } from './sm2.js'

// The push host (jpush-api.md §5): push, validate and cid; withdraw and the vendor channels' quota
// (§5.14). The success body of a push has exactly sendno and msg_id, both strings (§5.8: jsdk
// rejects any other key).

/** What a push is refused for once it is read, in the write that makes it (delivery/dispatch.ts). */
export const accepted = [
  e.invalid("'override_msg_id' value is invalid."),
  ...mediaErrors,
  e.unknownPlan('spring_sale'),
]
/** An example msg_id of a push nobody received: 1011 carries it. */
export const NOBODY = '18100000000000001'
/** After its body: the override, nobody matched, the day's broadcasts used up. */
const sending = [...accepted, e.noTarget(NOBODY), e.broadcastLimit()]

const count = field({
  // A repeated key is an array: Number() of it is NaN, and so invalid.
  read(value): number {
    const n = value === undefined ? 1 : Number(value)
    if (!Number.isInteger(n) || n < 1 || n > PUSH_LIMITS.cidPerCall) throw e.invalid('count is invalid')
    return n
  },
  schema: z.int().min(1).max(PUSH_LIMITS.cidPerCall).describe('Default 1.').optional(),
  errors: [e.invalid('count is invalid')],
})

const cidType = field({
  read(value): unknown {
    if (value !== undefined && value !== 'push' && value !== 'schedule') throw e.invalid('type is invalid')
    return value
  },
  schema: z.enum(['push', 'schedule']).optional(),
  errors: [e.invalid('type is invalid')],
})

// GET /v3/push/quota: the vendor channels' daily quotas, in the flat code/message/data shape (jsdk
// QuotaGetResult reads exactly these keys). The sandbox has no vendor channels: the values are the
// app's `settings.quota` (seed/push-settings.ts), -1 ("unlimited") for whatever it leaves out.
const VENDORS = ['xiaomi_quota', 'oppo_quota', 'vivo_quota'] as const

const used = z.object({ total: z.int().describe('-1: unlimited.'), used: z.int().describe('-1: unlimited.') })
const vendor = z.object({ system: used, operation: used })
const quotaAnswer = z.object({
  code: z.literal(0),
  message: z.literal('success'),
  data: z.object({ xiaomi_quota: vendor, oppo_quota: vendor, vivo_quota: vendor }),
})
type Quota = z.input<typeof quotaAnswer>['data']

// `used` counts down with what the app's pushes took today on its clock (delivery/route.ts).
function quotaOf(deps: PipelineDeps, app: App, now: number): Quota {
  const day = dayKey(now, deps.config.timeZone)
  const used = deps.store.pushVendorQuota.usedOn(app.appKey, day)
  const out = {} as Quota
  for (const name of VENDORS) {
    const vendor = name.replace('_quota', '') as QuotaVendor
    out[name] = {
      system: quotaToday(deps.store, app, day, vendor, 'system', used),
      operation: quotaToday(deps.store, app, day, vendor, 'operation', used),
    }
  }
  return out
}

/** A /v3/push body, read for the app that pushes: in clear, or SM2-encrypted (sm2.ts). */
const pushPayload = payload()
const pushBody = part({
  in: 'body',
  read: req =>
    isSm2(req)
      ? parseSm2Push(req.body)
      : parsePush(req.body, req.tenant.app.appKey, parseAudience, strictness(req.tenant.app.settings)),
  ...pushPayload,
  errors: [...pushPayload.errors, ...sm2Errors],
})

const done = z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).')

export function pushRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  const send =
    (validateOnly: boolean) =>
    async (req: FastifyRequest, { body }: { body: PushRequest }) => {
      // Before the write: a strict refusal leaves nothing behind (advisor/advice.ts).
      // An encrypted push has no content to advise on.
      if (isObject(body.body) && !body.encrypted && pushRulesApply(body.body))
        advise(req, deps.config, pushRules, { body: body.body, message: body.message !== undefined })
      const outcome = await sendPush(deps, req.tenant, body, validateOnly)
      if (outcome.noTarget) throw outcome.noTarget
      // Whom it reached (its fan-out counted it): warnings only, production accepts these pushes.
      if (outcome.seen && audienceRulesApply(outcome.seen))
        advise(req, deps.config, audienceRules, outcome.seen)
      return { sendno: outcome.sendno, msg_id: outcome.msgId }
    }
  return [
    vendorRoute({
      method: 'POST',
      url: '/push',
      summary: 'Push a notification or message (jpush-api.md §5)',
      description:
        'Delivered at once to online devices, to offline ones when they come online within ' +
        '`time_to_live`. See what each device received with `GET /_sandbox/push/messages`.',
      reads: { body: pushBody },
      checks: sending,
      answer: sent,
      handler: send(false),
    }),
    vendorRoute({
      method: 'POST',
      url: '/push/validate',
      summary: 'Check a push without delivering it (jpush-api.md §5)',
      description:
        'The same checks and a real msg_id; a broadcast is refused once today’s are used up, but uses none.',
      reads: { body: pushBody },
      checks: sending,
      answer: sent,
      handler: send(true),
    }),
    vendorRoute({
      method: 'GET',
      url: '/push/cid',
      summary: 'Get cids for idempotent pushes (jpush-api.md §5.10)',
      reads: { query: query({ count, type: cidType }) },
      answer: z.object({ cidlist: z.array(z.string()).describe('`<appKey>-<uuid>`, good for a day.') }),
      handler: async (req, { query }) => {
        const { appKey } = req.tenant.app
        return { cidlist: Array.from({ length: query.count }, () => `${appKey}-${randomUUID()}`) }
      },
    }),
    // A msg_id the app never pushed (another app's included) and one older than the withdraw
    // window are the same invalid value (1003, §5.12), like override_msg_id's (§5.7). Withdrawing
    // twice is not an error: nothing is left to withdraw. The answer is `{}`: clients ignore it
    // (jsdk `void`), and an empty 200 would break the ruby and async Node clients' parsers
    // (jpush-api.md §10).
    vendorRoute({
      method: 'DELETE',
      url: '/push/:msg_id',
      summary: 'Withdraw a push (jpush-api.md §5.14)',
      description:
        'What still waited for a device (offline within `time_to_live`, an SMS fallback not yet due) ' +
        'never arrives; what had arrived is marked withdrawn in `GET /_sandbox/push/messages`. Within a ' +
        'day of the push; withdrawing again is no error. Another app’s msg_id is one this app never pushed.',
      // /v3/push/<x> is this path's alone for DELETE; its POST stays what it was before: the push
      // host's endpoints the sandbox does not emulate (templates, plans), unknown paths (404 1003).
      unknownMethods: ['POST'],
      reads: { params: params({ msg_id: text('The msg_id /v3/push answered.') }) },
      checks: [
        e.invalid('msg_id 18100000000000099 does not exist'),
        e.invalid(`msg_id ${NOBODY} is older than one day and cannot be withdrawn`),
      ],
      answer: done,
      handler: async (req, { params }) => {
        const { msg_id: msgId } = params
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        await store.write(() => {
          const push = /^\d{1,19}$/.test(msgId) ? store.pushes.get(appKey, msgId) : undefined
          if (!push) throw e.invalid(`msg_id ${msgId.slice(0, 40)} does not exist`)
          if (push.withdrawnAt == null && now - push.createdAt > PUSH_LIMITS.withdrawWindowMs)
            throw e.invalid(`msg_id ${msgId} is older than one day and cannot be withdrawn`)
          store.pushWithdrawals.withdraw(appKey, msgId, now)
        })
        return {}
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/push/quota',
      summary: "The vendor channels' daily quotas (jpush-api.md §5.14)",
      description:
        'The flat `code`/`message`/`data` shape. The sandbox has no vendor channels: the values are the ' +
        "app's `settings.quota` (seed file or `PATCH /_sandbox/app`), -1 for what it leaves out.",
      answer: quotaAnswer,
      // Counts in the push rate window, as the service's does.
      handler: async req => ({
        code: 0 as const,
        message: 'success' as const,
        data: quotaOf(deps, req.tenant.app, req.tenant.now()),
      }),
    }),
  ]
}
