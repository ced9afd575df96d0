import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { newPushMsgId } from '../delivery/dispatch.js'
import { pushErrors } from '../errors.js'
import { isObject, type Json } from '../values.js'
import { parsePush } from './payload.js'
import { type PushEntry, pushOne } from './per-push.js'
import { groupPushDocs } from './variants-docs.js'

// POST /v3/grouppush (jpush-api.md §5.14), with a group's credentials (http/auth/group-auth.ts): the
// same body as /v3/push, pushed by every member app on its own (its devices, its limits, its
// statistics, its clock). The answer is {"group_msgid", "<appKey>": {"msg_id","sendno"} or
// {"error"} (or {"msg_id","error"} when nobody matched)}, in appKey order.

/** The body as each member pushes it: a cid names one app (`<appkey>-<uuid>`), so it cannot apply. */
function withoutCid(body: Json): Json {
  const { cid: _, ...rest } = body
  return rest
}

export function groupPushRoutes(deps: AppDeps): RouteSpec[] {
  return [
    {
      method: 'POST',
      url: '/grouppush',
      docs: groupPushDocs,
      config: { auth: 'group' },
      handler: async req => {
        const { members } = req.group!
        const raw = req.body
        // "override_msg_id is not supported" by group push (docs2019): refused, not ignored.
        if (isObject(raw) && isObject(raw.options) && raw.options.override_msg_id != null)
          throw pushErrors.invalid('override_msg_id is not supported by group push')
        // What is wrong with the body is wrong for every member: the request's own error.
        const push = parsePush(isObject(raw) ? withoutCid(raw) : raw, members[0]!.tenant.app.appKey)
        return deps.store.write(() => {
          const answer: Record<string, PushEntry | string> = { group_msgid: newPushMsgId(deps.store) }
          for (const { tenant, refusal } of members) {
            answer[tenant.app.appKey] = refusal
              ? refusal.toBody()
              : pushOne(deps, tenant, push, ({ msgId, sendno }) => ({ msg_id: msgId, sendno }))
          }
          return answer
        })
      },
    },
  ]
}
