import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.js'
import type { QueryValue } from '../../http/body/query.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { dayKey } from '../../time.js'
import { reportErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isObject, stringArray } from '../values.js'
import { countPushes } from './counts.js'
import {
  messageStatusDocs,
  messagesDetailDocs,
  messagesDocs,
  receivedDetailDocs,
  receivedDocs,
} from './docs.js'
import { messagesDetailItem, messagesItem, receivedDetailItem, receivedItem } from './views.js'

type MsgIdsQuery = { msg_ids?: QueryValue }

/**
 * `msg_ids=1,2` (comma raw or %2C; a python list arrives as repeated keys): ≤ 100 numeric ids,
 * else 3002. Absent: the app's latest push, because jpush-async sends no query string at all
 * (sdk-wire-capture.md §4.3) and would otherwise never get an answer it can use.
 */
function readMsgIds(
  deps: Pick<AppDeps, 'store'>,
  req: FastifyRequest<{ Querystring: MsgIdsQuery }>,
): string[] {
  const raw = req.query.msg_ids
  if (raw === undefined) {
    const latest = deps.store.pushes.latest(req.tenant.app.appKey)
    return latest ? [latest.msgId] : []
  }
  const ids = [raw]
    .flat()
    .flatMap(v => v.split(/[,\s]+/))
    .filter(v => v !== '')
  if (ids.length === 0 || ids.length > PUSH_LIMITS.reportMsgIds)
    throw reportErrors.invalid('msg_ids is invalid')
  if (ids.some(id => !/^\d{1,20}$/.test(id))) throw reportErrors.invalid('msg_ids is invalid')
  return [...new Set(ids)]
}

export function pushReportRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  const report = <T>(url: string, docs: RouteDocs, view: (c: ReturnType<typeof countPushes>[number]) => T) =>
    route<{ Querystring: MsgIdsQuery }>({
      method: 'GET',
      url,
      docs,
      handler: async req => {
        const ids = readMsgIds(deps, req)
        const now = req.tenant.now()
        return countPushes(deps, req.tenant.app.appKey, ids, now).map(view)
      },
    })
  return [
    report('/received', receivedDocs, receivedItem),
    report('/received/detail', receivedDetailDocs, receivedDetailItem),
    report('/messages', messagesDocs, messagesItem),
    report('/messages/detail', messagesDetailDocs, messagesDetailItem),
    {
      method: 'POST',
      url: '/status/message',
      docs: messageStatusDocs,
      // `{"msg_id": <number>, …}` (jpush-api.md §6.2): a 17-digit number, read exactly.
      config: { exactIntegers: ['msg_id'] },
      handler: async req => {
        const body = req.body
        if (!isObject(body)) throw reportErrors.invalid()
        const msgId = typeof body.msg_id === 'number' ? String(body.msg_id) : body.msg_id
        if (typeof msgId !== 'string' || !/^\d{1,20}$/.test(msgId))
          throw reportErrors.invalid('msg_id is invalid')
        const rids = stringArray(body.registration_ids)
        if (!rids || rids.length === 0 || rids.length > PUSH_LIMITS.statusRids) {
          throw reportErrors.invalid('registration_ids is invalid')
        }
        const date = body.date
        if (
          date !== undefined &&
          date !== null &&
          (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))
        ) {
          throw reportErrors.invalid('date is invalid')
        }
        const { app } = req.tenant
        const now = req.tenant.now()
        const day = typeof date === 'string' ? date : dayKey(now, deps.config.timeZone)
        const deliveries = new Map(
          store.pushDeliveries.ofPush(app.appKey, msgId).map(d => [d.registrationId, d]),
        )
        const out: Record<string, { status: number }> = {}
        for (const rid of rids) {
          const d = deliveries.get(rid)
          // 0 delivered (on that day), 1 not delivered, 2 not a device of this app, 3 not a target.
          if (!store.pushDevices.get(app.appKey, rid)) out[rid] = { status: 2 }
          else if (!d) out[rid] = { status: 3 }
          else if (d.deliveredAt !== null && dayKey(d.deliveredAt, deps.config.timeZone) <= day)
            out[rid] = { status: 0 }
          else out[rid] = { status: 1 }
        }
        return out
      },
    },
  ]
}
