import { z } from 'zod'
import { invalidControlBody } from '../../control/dialect.js'
import { sandboxErrors } from '../../control/errors.js'
import { textField } from '../../control/schemas.js'
import { optionalInt } from '../../http/body/fields.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { readPathId } from '../fields.js'
import { reviewDecision } from '../reviews/index.js'
import { signView } from '../signs/index.js'
import { templateView } from './templates.js'

// The reviewer's desk: approve (1) or reject (2) a template or signature at once (a review.decided
// event), instead of waiting REVIEW_DELAY_MS of clock time. Any state may be decided again, so a
// test can also reject an approved template. Unknown (or malformed) ids are 404.

const unknownTemplate = sandboxErrors.unknownTempId
const unknownSign = sandboxErrors.unknownSignId
const invalidStatus = () => invalidControlBody('"status": must be 1 (approve) or 2 (reject)')
/** A decision is a review.decided event, in the write that records it. */
const DECIDED = { announces: ['review.decided'] } as const

function readStatus(value: unknown): 1 | 2 {
  const status = optionalInt(value, invalidStatus)
  if (status !== 1 && status !== 2) throw invalidStatus()
  return status
}

export const schemas = {
  template: z.object({ temp_id: readBy(v => readPathId(v, unknownTemplate)) }),
  sign: z.object({ sign_id: readBy(v => readPathId(v, unknownSign)) }),
  decision: z.object({
    status: readBy(readStatus, { type: 'integer', enum: [1, 2], description: '1 approves, 2 rejects.' }),
    /** Kept only with a rejection. */
    refuse_reason: textField('"refuse_reason": must be a string'),
  }),
  decidedTemplate: z.object({
    temp_id: z.number(),
    template: z.string(),
    type: z.number(),
    ttl: z.number(),
    remark: z.string(),
    status: z.number(),
    refuse_reason: z.string().nullable(),
  }),
  decidedSign: z.object({
    sign_id: z.number(),
    sign: z.string(),
    status: z.number(),
    is_default: z.number(),
    use_status: z.number(),
    refuse_reason: z.string().nullable(),
  }),
}

export function reviewRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  // A reason only makes sense for a rejection.
  const reasonOf = (d: { status: 1 | 2; refuse_reason: string | undefined }) =>
    d.status === 2 ? (d.refuse_reason ?? null) : null
  return [
    schemaRoute({
      method: 'POST',
      url: '/sms/templates/:temp_id/review',
      docs: {
        summary: "Decide a template's review: approve (1) or reject (2, with a refuse_reason)",
        description: `Whatever its state, at once, in place of the clock (REVIEW_DELAY_MS approves what is under review).
A rejected template answers 50021 to sends, and may be modified (PUT /v1/templates/{temp_id}); the app
with a callback URL gets SMS_TEMPLATE. Event: \`review.decided\`.`,
        errors: [
          sandboxErrors.invalidField('"status": must be 1 (approve) or 2 (reject)'),
          unknownTemplate(),
        ],
      },
      schema: {
        params: schemas.template,
        body: schemas.decision,
        response: { 200: schemas.decidedTemplate },
      },
      handler: async req => {
        const { temp_id: tempId } = req.params
        const { appKey } = req.tenant.app
        const decided = await store.write(DECIDED, () => {
          const { status } = req.body
          const [reason, now] = [reasonOf(req.body), req.tenant.now()]
          if (!store.templates.decide(appKey, tempId, status, reason, now)) throw unknownTemplate()
          const data = reviewDecision('template', tempId, status, reason, now)
          store.events.append({ appKey, type: 'review.decided', data, at: now })
          return store.templates.get(appKey, tempId)!
        })
        return { ...templateView(decided), refuse_reason: decided.refuseReason }
      },
    }),
    schemaRoute({
      method: 'POST',
      url: '/sms/signs/:sign_id/review',
      docs: {
        summary: "Decide a signature's review: approve (1) or reject (2, with a refuse_reason)",
        description: `As for templates: at once, whatever its state; the app with a callback URL gets SMS_SIGN. Event:
\`review.decided\`.`,
        errors: [sandboxErrors.invalidField('"status": must be 1 (approve) or 2 (reject)'), unknownSign()],
      },
      schema: { params: schemas.sign, body: schemas.decision, response: { 200: schemas.decidedSign } },
      handler: async req => {
        const { sign_id: signId } = req.params
        const { appKey } = req.tenant.app
        const decided = await store.write(DECIDED, () => {
          const { status } = req.body
          const [reason, now] = [reasonOf(req.body), req.tenant.now()]
          if (!store.signs.decide(appKey, signId, status, reason, now)) throw unknownSign()
          const data = reviewDecision('sign', signId, status, reason, now)
          store.events.append({ appKey, type: 'review.decided', data, at: now })
          return store.signs.get(appKey, signId)!
        })
        const used = store.signs.usedByMessages(appKey, signId)
        return { ...signView(decided, used), refuse_reason: decided.refuseReason }
      },
    }),
  ]
}
