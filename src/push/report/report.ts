import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import type { QueryValue } from '../../http/body/query.js'
import { field, jsonBody, type ObjectReader, query } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { dayKey } from '../../time.js'
import { reportErrors as e } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { isObject, stringArray } from '../values.js'
import { countPushes, type PushCounts } from './counts.js'
import { dropsItsQuery } from './query-less.js'
import {
  messagesAnswer,
  messagesDetailAnswer,
  messagesDetailItem,
  messagesItem,
  receivedAnswer,
  receivedDetailAnswer,
  receivedDetailItem,
  receivedItem,
} from './views.js'

// The report host (jpush-api.md §6): per push, what was delivered and opened, and whether a push
// reached each device.

/**
 * A query's list of message ids: comma- or space-separated, in one key or repeated ones, each
 * 1 to 20 digits, at most `max`; repeats dropped. Anything else is 3001 `<name> is invalid`.
 */
export function readMsgIdList(raw: QueryValue, name: string, max: number): string[] {
  const ids = [raw]
    .flat()
    .filter(v => v !== undefined)
    .flatMap(v => v.split(/[,\s]+/))
    .filter(v => v !== '')
  if (ids.length === 0 || ids.length > max || ids.some(id => !/^\d{1,20}$/.test(id)))
    throw e.invalid(`${name} is invalid`)
  return [...new Set(ids)]
}

/**
 * `msg_ids=1,2` (comma raw or %2C; a python list arrives as repeated keys): ≤ 100 numeric ids,
 * else 3002. Absent (undefined): 3002 too, but for jpush-async (the handler: query-less.ts).
 */
const msgIds = field({
  read(value): string[] | undefined {
    const raw = value as QueryValue
    return raw === undefined ? undefined : readMsgIdList(raw, 'msg_ids', PUSH_LIMITS.reportMsgIds)
  },
  schema: z
    .string()
    .describe(
      'Comma-separated, at most 100 (repeated keys too). Required; only jpush-async, which drops every query, gets the latest push without it.',
    )
    .optional(),
  errors: [e.invalid('msg_ids is invalid')],
})

/** A body that is not an object: 3002 without a reason. */
const reportObject: ObjectReader = {
  read(body) {
    if (!isObject(body)) throw e.invalid()
    return body
  },
  errors: [e.invalid()],
}

const statusMsgId = field({
  read(value): string {
    const id = typeof value === 'number' ? String(value) : value
    if (typeof id !== 'string' || !/^\d{1,20}$/.test(id)) throw e.invalid('msg_id is invalid')
    return id
  },
  schema: z.union([z.string(), z.int()]).describe('17 digits, as a string or a bare number.'),
  errors: [e.invalid('msg_id is invalid')],
  // `{"msg_id": <number>, …}` (jpush-api.md §6.2): a 17-digit number, read exactly.
  exactIntegers: [''],
})

const statusRids = field({
  read(value): string[] {
    const rids = stringArray(value)
    if (!rids || rids.length === 0 || rids.length > PUSH_LIMITS.statusRids)
      throw e.invalid('registration_ids is invalid')
    return rids
  },
  schema: z.array(z.string()).min(1).max(PUSH_LIMITS.statusRids),
  errors: [e.invalid('registration_ids is invalid')],
})

const statusDate = field({
  read(value): string | undefined {
    if (
      value !== undefined &&
      value !== null &&
      (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    )
      throw e.invalid('date is invalid')
    return typeof value === 'string' ? value : undefined
  },
  schema: z.string().describe('yyyy-mm-dd; default: today on the app clock.').optional(),
  errors: [e.invalid('date is invalid')],
})

export function pushReportRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  const report = (url: string, summary: string, answer: z.ZodType, view: (c: PushCounts) => unknown) =>
    vendorRoute({
      method: 'GET',
      url,
      summary,
      reads: { query: query({ msg_ids: msgIds }) },
      answer,
      handler: async (req, { query }) => {
        const { appKey } = req.tenant.app
        // Absent: 3002, unless the client is jpush-async, which cannot send it (query-less.ts) and
        // gets the app's latest push, the one it most likely asks about.
        if (query.msg_ids === undefined && !dropsItsQuery(req)) throw e.invalid('msg_ids is invalid')
        const latest = query.msg_ids === undefined ? store.pushes.latest(appKey) : undefined
        const ids = query.msg_ids ?? (latest ? [latest.msgId] : [])
        const now = req.tenant.now()
        return countPushes(deps, appKey, ids, now).map(view)
      },
    })
  return [
    report('/received', 'Delivery counts per push (jpush-api.md §6.1)', receivedAnswer, receivedItem),
    report(
      '/received/detail',
      'Delivery counts per push and channel (jpush-api.md §6.1)',
      receivedDetailAnswer,
      receivedDetailItem,
    ),
    report('/messages', 'Statistics per push and platform (jpush-api.md §6.3)', messagesAnswer, messagesItem),
    report(
      '/messages/detail',
      'Statistics per push, kind and channel (jpush-api.md §6.4)',
      messagesDetailAnswer,
      messagesDetailItem,
    ),
    vendorRoute({
      method: 'POST',
      url: '/status/message',
      summary: 'Whether a push reached each device (jpush-api.md §6.2)',
      reads: {
        body: jsonBody(reportObject, { msg_id: statusMsgId, registration_ids: statusRids, date: statusDate }),
      },
      answer: z.record(
        z.string(),
        z.object({
          status: z
            .int()
            .describe('0 delivered, 1 not delivered, 2 not a device of the app, 3 not a target.'),
        }),
      ),
      handler: async (req, { body }) => {
        const { msg_id: msgId, registration_ids: rids } = body
        const { app } = req.tenant
        const now = req.tenant.now()
        const day = body.date ?? dayKey(now, deps.config.timeZone)
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
    }),
  ]
}
