import type { AppDeps } from '../deps.js'
import { optionalInt, optionalString } from '../http/fields.js'
import type { RouteSpec } from '../http/routes.js'
import { smsErrors } from '../sms/errors.js'
import { readPathId } from '../sms/path-id.js'
import { signView } from '../sms/signs.js'
import { templateView } from '../sms/templates.js'
import { invalidControlBody, readControlBody } from './dialect.js'

// The reviewer's desk: approve (1) or reject (2) a template or signature at once, instead of
// waiting REVIEW_DELAY_MS of clock time. Any state may be decided again, so a test can also
// reject an approved template. Unknown ids are 404 with the vendor's code for that id.

const unknownTemplate = () => smsErrors.invalidTempId().withStatus(404)
const unknownSign = () => smsErrors.invalidSignId().withStatus(404)

function readDecision(body: unknown): { status: 1 | 2; reason: string | null } {
  const b = readControlBody(body)
  const invalidStatus = () => invalidControlBody('"status" must be 1 (approve) or 2 (reject)')
  const status = optionalInt(b.status, invalidStatus)
  if (status !== 1 && status !== 2) throw invalidStatus()
  // A reason only makes sense for a rejection.
  const reason = status === 2 ? (optionalString(b.refuse_reason, smsErrors.invalidBody) ?? null) : null
  return { status, reason }
}

export function reviewRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'POST',
      url: '/sms/templates/:temp_id/review',
      handler: async req => {
        const tempId = readPathId((req.params as { temp_id?: string }).temp_id, unknownTemplate)
        const { status, reason } = readDecision(req.body)
        const { appKey } = req.tenant.app
        const decided = await store.write(() => {
          if (!store.templates.decide(appKey, tempId, status, reason, req.tenant.now()))
            throw unknownTemplate()
          return store.templates.get(appKey, tempId)!
        })
        return { ...templateView(decided), refuse_reason: decided.refuseReason }
      },
    },
    {
      method: 'POST',
      url: '/sms/signs/:sign_id/review',
      handler: async req => {
        const signId = readPathId((req.params as { sign_id?: string }).sign_id, unknownSign)
        const { status, reason } = readDecision(req.body)
        const { appKey } = req.tenant.app
        const decided = await store.write(() => {
          if (!store.signs.decide(appKey, signId, status, reason, req.tenant.now())) throw unknownSign()
          return store.signs.get(appKey, signId)!
        })
        const used = store.signs.usedByMessages(appKey, signId)
        return { ...signView(decided, used), refuse_reason: decided.refuseReason }
      },
    },
  ]
}
