import { z } from 'zod'
import { smsScheduleItem } from '../../changes/items.js'
import type { Config } from '../../config.js'
import { sandboxErrors } from '../../control/errors.js'
import { type ListQuery, listQuery } from '../../control/list-query.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'

// What GET /v1/schedule/{id} does not show: every SMS task of the app (sent and deleted ones
// too), its state, and each recipient's msg_id (the message's, once the task has fired) or the
// refusal it met when the task fired.

const filters = ['schedule_id', 'state', 'mobile', 'msg_id'] as const
const STATES = ['pending', 'sent', 'deleted'] as const

export const schemas = {
  // The lists' filters (list-query.ts) that make sense for tasks: they have no seq (a task that
  // fires is a schedule.fired event, which GET /_sandbox/events?kind=schedule.fired can wait for).
  query: listQuery(filters, { state: STATES }, { seq: false }),
  schedules: z.object({
    schedules: z.array(
      z.object({
        schedule_id: z.string(),
        batch: z.boolean(),
        temp_id: z.number(),
        sign_id: z.number().nullable(),
        tag: z.string().nullable(),
        /** As the task was submitted: `yyyy-MM-dd HH:mm:ss` in SMS_TIME_ZONE. */
        send_time: z.string(),
        send_at: z.string(),
        /** pending (not due yet), sent (fired: each recipient sent or refused) or deleted. */
        state: z.enum(STATES),
        sent_at: z.string().nullable(),
        created_at: z.string(),
        updated_at: z.string(),
        recipients: z.array(
          z.object({
            msg_id: z.string(),
            mobile: z.string(),
            temp_para: z.record(z.string(), z.string()),
            error: z.object({ code: z.number(), message: z.string() }).nullable(),
          }),
        ),
      }),
    ),
  }),
}

/**
 * GET /_sandbox/sms/schedules: newest first; `schedule_id`, `state`, `mobile` and `msg_id` (of a
 * recipient), `since`/`until` (its creation, app clock), `limit` (1–1000, 100).
 */
export function smsScheduleInspectRoutes(deps: { store: Store; config: Config }): RouteSpec[] {
  const { store, config } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/sms/schedules',
      docs: {
        summary: "The app's scheduled SMS tasks, with each recipient's msg_id and outcome",
        description: `Newest first: each task's send time (SMS_TIME_ZONE and ISO), its state (\`pending\`, \`sent\`, \`deleted\`) and
its recipients (a refused one keeps its error). Filters: \`schedule_id\`, \`state\`, \`mobile\` and \`msg_id\` (a
recipient's), \`since\`/\`until\` (its creation, app clock), \`limit\`. No seq: each firing is a \`schedule.fired\` event.`,
        errors: [sandboxErrors.invalidField('"state": must be one of pending, sent, deleted')],
      },
      schema: { querystring: schemas.query, response: { 200: schemas.schedules } },
      handler: async req => {
        const q = req.query as ListQuery<(typeof filters)[number]>
        const { appKey } = req.tenant.app
        const ids = store.schedules.ids(appKey, { ...q, scheduleId: q.schedule_id, msgId: q.msg_id })
        return {
          schedules: ids
            .flatMap(id => store.schedules.get(appKey, id) ?? [])
            .map(s => smsScheduleItem(store, s, config.timeZone)),
        }
      },
    }),
  ]
}
