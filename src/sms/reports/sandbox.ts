import { z } from 'zod'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import { listRoute } from '../../control/list-route.js'
import type { Hub } from '../../events/hub.js'
import type { RouteSpec } from '../../http/routes.js'
import { readBy, schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import { reportItems as items, reportItem } from './items.js'
import { REPORT_STATUSES } from './status.js'

/**
 * The delivery reports that arrived (each at its receive time, REPORT_DELAY_MS after its message:
 * the sms.report event), whether or not GET /v1/report handed them out.
 */
export function smsReportListRoutes(deps: { store: Store; hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/sms/reports',
      summary: 'Delivery reports that arrived',
      key: 'reports',
      filters: ['mobile', 'msg_id'],
      item: items.report,
      topic: 'reports',
      read: (appKey, q) => store.reports.list(appKey, { ...q, msgId: q.msg_id }).map(reportItem),
    }),
  ]
}

// Steering the carrier: the delivery report of one message gets the status a test chooses, in
// place of the one the magic numbers gave it (sms/reports/status.ts). It is handed out as usual,
// when it falls due: pulled by GET /v1/report, or called back (SMS_REPORT).

function readMsgId(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value)
  if (typeof value === 'string' && /^\d{1,20}$/.test(value.trim())) return value.trim()
  throw invalidField('msg_id', 'required: the msg_id of a message the app sent')
}

function readStatus(value: unknown): number {
  const status = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value
  if (typeof status !== 'number' || !REPORT_STATUSES.includes(status))
    throw invalidField('status', `must be a delivery status: ${REPORT_STATUSES.join(', ')}`)
  return status
}

const schemas = {
  steer: z.object({ msg_id: readBy(readMsgId), status: readBy(readStatus) }).strict(),
  report: z.object({ msg_id: z.string(), mobile: z.string(), status: z.number(), report_at: z.string() }),
}

export function smsReportSteeringRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'POST',
      url: '/sms/reports',
      docs: {
        summary: 'Choose the delivery status of a message the carrier has not reported yet',
        description: `In place of the status the magic numbers give it (docs/sms.md); the report is handed out as usual when
it falls due (REPORT_DELAY_MS after the message): pulled by GET /v1/report, or called back.`,
        errors: [
          sandboxErrors.invalidField('"status": must be a delivery status: 4001, 4002, …'),
          sandboxErrors.unknownMsgId('the app sent no message with msg_id <msg_id>'),
          sandboxErrors.reportHandedOut(
            'the report of msg_id <msg_id> was already handed out (GET /v1/report or its callback): it can no longer change',
          ),
          sandboxErrors.notSentYet(
            'msg_id <msg_id> belongs to a scheduled message not sent yet: move the clock past its send_time first',
          ),
        ],
      },
      schema: { body: schemas.steer, response: { 200: schemas.report } },
      handler: async req => {
        const { msg_id: msgId, status } = req.body
        const { appKey } = req.tenant.app
        const report = await store.write(() => {
          const found = store.reports.get(appKey, msgId)
          if (!found) {
            if (store.schedules.isPendingRecipient(appKey, msgId))
              throw sandboxErrors.notSentYet(
                `msg_id ${msgId} belongs to a scheduled message not sent yet: move the clock past its send_time first`,
              )
            throw sandboxErrors.unknownMsgId(`the app sent no message with msg_id ${msgId}`)
          }
          if (found.handedOut || !store.reports.setStatus(appKey, msgId, status))
            throw sandboxErrors.reportHandedOut(
              `the report of msg_id ${msgId} was already handed out (GET /v1/report or its callback): it can no longer change`,
            )
          return { ...found, status }
        })
        return { msg_id: report.msgId, mobile: report.mobile, status, report_at: iso(report.reportAt) }
      },
    }),
  ]
}
