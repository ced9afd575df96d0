import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { pushErrors } from '../errors.js'
import { BATCH_LIMITS } from '../limits.js'
import { isObject, scalarText } from '../values.js'
import { parsePush } from './payload.js'
import { type PushEntry, pushOne, readEntry } from './per-push.js'
import { batchDocs } from './variants-docs.js'

// POST /v3/push/batch/regid/single and /v3/push/batch/alias/single (jpush-api.md §5.14): up to
// 1000 pushes keyed by their cid, each to one `target` (a registration_id or an alias), each read,
// checked and delivered on its own as a /v3/push would be. The answer maps each cid to its own
// `{"msg_id"}`, `{"msg_id","error"}` (nobody matched) or `{"error"}`.

const KINDS = { regid: 'registration_id', alias: 'alias' } as const

/** The `pushlist` object; what is wrong with it is the whole request's error. */
function readPushlist(body: unknown): Record<string, unknown> {
  if (!isObject(body) || body.pushlist === undefined || body.pushlist === null)
    throw pushErrors.missing('pushlist')
  if (!isObject(body.pushlist)) throw pushErrors.invalid('pushlist must be an object keyed by cid')
  const size = Object.keys(body.pushlist).length
  if (size === 0) throw pushErrors.invalid('pushlist is empty')
  if (size > BATCH_LIMITS.entries)
    throw pushErrors.invalid(`pushlist has more than ${BATCH_LIMITS.entries} entries`)
  return body.pushlist
}

/**
 * The java client (PushClient.batchSendPush) sends each entry as a whole PushPayload: no `target`,
 * an `audience` of one registration_id (or alias). That one value is taken as the target.
 */
function audienceTarget(audience: unknown, key: string): unknown {
  const values = isObject(audience) ? audience[key] : undefined
  return Array.isArray(values) && values.length === 1 ? values[0] : undefined
}

/**
 * One entry as the body of a push: its `target` as the audience, its key as the cid (so a cid
 * already used returns that first result, as on /v3/push). Any other `audience` is ignored.
 */
function entryBody(item: unknown, cid: string, kind: keyof typeof KINDS): unknown {
  if (!isObject(item)) throw pushErrors.invalid('a pushlist entry must be an object')
  if (item.platform === undefined || item.platform === null) throw pushErrors.missing('platform')
  const given = item.target ?? audienceTarget(item.audience, KINDS[kind])
  if (given === undefined || given === null) throw pushErrors.missing('target')
  const target = scalarText(given)
  if (target === undefined) throw pushErrors.invalid('target is invalid')
  return { ...item, audience: { [KINDS[kind]]: [target] }, cid }
}

export function batchRoutes(deps: AppDeps): RouteSpec[] {
  return (['regid', 'alias'] as const).map(kind => ({
    method: 'POST',
    url: `/push/batch/${kind}/single`,
    docs: batchDocs,
    bodyLimit: BATCH_LIMITS.bodyBytes,
    handler: async req => {
      const pushlist = readPushlist(req.body)
      const { tenant } = req
      const entries = Object.entries(pushlist).map(
        ([cid, item]) =>
          [cid, readEntry(() => parsePush(entryBody(item, cid, kind), tenant.app.appKey))] as const,
      )
      return deps.store.write(() => {
        const answer: Record<string, PushEntry> = {}
        for (const [cid, entry] of entries)
          answer[cid] =
            'answer' in entry
              ? entry.answer
              : pushOne(deps, tenant, entry.push, ({ msgId }) => ({ msg_id: msgId }))
        return answer
      })
    },
  }))
}
