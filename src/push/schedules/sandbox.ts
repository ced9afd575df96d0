import { z } from 'zod'
import { pushScheduleItem } from '../../changes/items.js'
import { sandboxErrors } from '../../control/errors.js'
import { type ListQuery, listQuery } from '../../control/list-query.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { SCHEDULE_STATES } from './table.js'

// What the Schedule API does not show: every task of the app (over and deleted ones too), its
// state, when it fires next, and each occurrence it fired with the push's msg_id or error.

const filters = ['schedule_id', 'kind', 'state', 'msg_id'] as const
const KINDS = ['single', 'periodical'] as const

export const schemas = {
  // The lists' filters (list-query.ts) that make sense for tasks: they have no seq (each firing
  // is a schedule.fired event, which GET /_sandbox/events?kind=schedule.fired can wait for).
  query: listQuery(filters, { kind: KINDS, state: SCHEDULE_STATES }, { seq: false }),
  schedules: z.object({
    schedules: z.array(
      z.object({
        schedule_id: z.string(),
        name: z.string(),
        kind: z.enum(KINDS),
        enabled: z.boolean(),
        /** deleted; expired (its time or end has passed); disabled; or active. */
        state: z.enum(SCHEDULE_STATES),
        trigger: z.record(z.string(), z.unknown()),
        push: z.record(z.string(), z.unknown()),
        next_fire_time: z.string().nullable(),
        created_at: z.string(),
        updated_at: z.string(),
        deleted_at: z.string().nullable(),
        firings: z.array(
          z.object({
            fire_time: z.string(),
            msg_id: z.string().nullable(),
            error: z.object({ code: z.number(), message: z.string() }).nullable(),
          }),
        ),
      }),
    ),
  }),
}

/**
 * GET /_sandbox/push/schedules: newest first; `schedule_id`, `kind`, `state`, `msg_id` (a push one
 * of its occurrences made), `since`/`until` (its creation, app clock), `limit` (1–1000, 100).
 */
export function pushScheduleInspectRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/schedules',
      docs: {
        summary: "The app's JPush schedules, with every occurrence each fired",
        description: `Newest first, with their state (\`active\`, \`disabled\`, \`expired\`, \`deleted\`) and firings (the push each
made, or its error). Filters: \`schedule_id\`, \`kind\`, \`state\`, \`msg_id\` (a push an occurrence made), \`since\`/\`until\`
(its creation, app clock), \`limit\`. No seq: each firing is a \`schedule.fired\` event.`,
        errors: [sandboxErrors.invalidField('"state": must be one of active, disabled, expired, deleted')],
      },
      schema: { querystring: schemas.query, response: { 200: schemas.schedules } },
      handler: async req => {
        const q = req.query as ListQuery<(typeof filters)[number]>
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const tasks = store.pushSchedules.list(appKey, {
          ...q,
          scheduleId: q.schedule_id,
          msgId: q.msg_id,
          now,
        })
        return {
          schedules: tasks.map(s => pushScheduleItem(store, s, now)),
        }
      },
    }),
  ]
}
