import type { AppDeps } from '../deps.js'
import { type RouteSpec, route } from '../http/routes.js'
import { pushDialect } from './dialect.js'
import { pushErrors } from './errors.js'
import { PUSH_LIMITS } from './limits.js'

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
    // Without this, every POST under /v3/push/ would be this path's 405 ("only POST"): the push
    // host's POST endpoints the sandbox does not emulate (templates, plans) are unknown paths.
    {
      method: 'POST',
      url: '/push/:msg_id',
      config: { public: true },
      handler: async () => {
        throw pushDialect.notFound()
      },
    },
  ]
}
