import type { AppDeps } from '../../deps.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { withdrawDocs } from './variants-docs.js'

// DELETE /v3/push/{msg_id} (jpush-api.md §5.14): withdraw a push. What still waited for a device
// (offline within time_to_live, an SMS fallback not yet due) never arrives; what had arrived is
// marked withdrawn in the sandbox's view (GET /_sandbox/push/messages).

/**
 * A msg_id the app never pushed (another app's included) and one older than the withdraw window
 * are the same invalid value (1003, §5.12), like override_msg_id's (§5.7). Withdrawing twice is
 * not an error: nothing is left to withdraw. The answer is `{}`: clients ignore it (jsdk `void`),
 * and an empty 200 would break the ruby and async Node clients' parsers (jpush-api.md §10).
 */
export function withdrawRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    route<{ Params: { msg_id: string } }>({
      method: 'DELETE',
      url: '/push/:msg_id',
      docs: withdrawDocs,
      // /v3/push/<x> is this path's alone for DELETE; its POST stays what it was before: the push
      // host's endpoints the sandbox does not emulate (templates, plans), unknown paths (404 1003).
      unknownMethods: ['POST'],
      handler: async req => {
        const { msg_id: msgId } = req.params
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        await store.write(() => {
          const push = /^\d{1,19}$/.test(msgId) ? store.pushes.get(appKey, msgId) : undefined
          if (!push) throw pushErrors.invalid(`msg_id ${msgId.slice(0, 40)} does not exist`)
          if (push.withdrawnAt == null && now - push.createdAt > PUSH_LIMITS.withdrawWindowMs)
            throw pushErrors.invalid(`msg_id ${msgId} is older than one day and cannot be withdrawn`)
          store.pushWithdrawals.withdraw(appKey, msgId, now)
        })
        return {}
      },
    }),
  ]
}
