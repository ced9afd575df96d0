import { randomUUID } from 'node:crypto'
import type { AppDeps } from '../../deps.js'
import type { QueryValue } from '../../http/body/query.js'
import { type RouteSpec, route } from '../../http/routes.js'
import { dispatchPush } from '../delivery/dispatch.js'
import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { cidDocs, pushDocs, validateDocs } from './docs.js'
import { parsePush } from './payload.js'

// The push host (jpush-api.md §5): push, validate and cid. The success body has exactly
// sendno and msg_id, both strings (§5.8: jsdk rejects any other key).

const OVERRIDE = ['options.override_msg_id']

export function pushRoutes(deps: AppDeps): RouteSpec[] {
  const send =
    (validateOnly: boolean): RouteSpec['handler'] =>
    async req => {
      const push = parsePush(req.body, req.tenant.app.appKey)
      // dispatchPush refuses (cid, override, broadcast limit) before it writes: no savepoint (writer.ts).
      const outcome = await deps.store.write(() => dispatchPush(deps, req.tenant, push, validateOnly), {
        checksFirst: true,
      })
      if (outcome.noTarget) throw pushErrors.noTarget(outcome.msgId)
      return { sendno: outcome.sendno, msg_id: outcome.msgId }
    }
  return [
    // override_msg_id is a long (jpush-api.md §5.7): Java and Ruby send it as a bare number.
    {
      method: 'POST',
      url: '/push',
      docs: pushDocs,
      handler: send(false),
      config: { exactIntegers: OVERRIDE },
    },
    {
      method: 'POST',
      url: '/push/validate',
      docs: validateDocs,
      handler: send(true),
      config: { exactIntegers: OVERRIDE },
    },
    route<{ Querystring: { count?: QueryValue; type?: QueryValue } }>({
      method: 'GET',
      url: '/push/cid',
      docs: cidDocs,
      handler: async req => {
        const q = req.query
        // A repeated key is an array: Number() of it is NaN, and so invalid.
        const count = q.count === undefined ? 1 : Number(q.count)
        if (!Number.isInteger(count) || count < 1 || count > PUSH_LIMITS.cidPerCall)
          throw pushErrors.invalid('count is invalid')
        if (q.type !== undefined && q.type !== 'push' && q.type !== 'schedule')
          throw pushErrors.invalid('type is invalid')
        const appKey = req.tenant.app.appKey
        return { cidlist: Array.from({ length: count }, () => `${appKey}-${randomUUID()}`) }
      },
    }),
  ]
}
