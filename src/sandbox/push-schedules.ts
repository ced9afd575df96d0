import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { queryLimit, queryText, schemaRoute } from '../http/schema.js'
import type { PushSchedule } from '../store/push-schedules.js'
import { iso, isoOrNull } from './schemas.js'

// What the Schedule API does not show: every task of the app (over and deleted ones too), its
// state, when it fires next, and each occurrence it fired with the push's msg_id or error.

const schemas = {
  query: z.object({ schedule_id: queryText, limit: queryLimit }),
  schedules: z.object({
    schedules: z.array(
      z.object({
        schedule_id: z.string(),
        name: z.string(),
        kind: z.enum(['single', 'periodical']),
        enabled: z.boolean(),
        /** deleted; expired (its time or end has passed); disabled; or active. */
        state: z.enum(['active', 'disabled', 'expired', 'deleted']),
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

type State = 'active' | 'disabled' | 'expired' | 'deleted'

const stateOf = (s: PushSchedule, now: number): State =>
  s.deletedAt !== null ? 'deleted' : s.endsAt <= now ? 'expired' : s.enabled ? 'active' : 'disabled'

/** GET /_sandbox/push/schedules: newest first; `schedule_id` for one, `limit` (100, ≤ 1000). */
export function pushScheduleInspectRoutes(deps: Pick<AppDeps, 'store'>): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/schedules',
      schema: { querystring: schemas.query, response: { 200: schemas.schedules } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const now = req.tenant.now()
        const tasks = store.pushSchedules.search(appKey, {
          scheduleId: req.query.schedule_id || undefined,
          limit: req.query.limit,
        })
        return {
          schedules: tasks.map(s => ({
            schedule_id: s.scheduleId,
            name: s.name,
            kind: s.kind,
            enabled: s.enabled,
            state: stateOf(s, now),
            trigger: s.trigger,
            push: s.push,
            next_fire_time: isoOrNull(s.nextDueAt),
            created_at: iso(s.createdAt),
            updated_at: iso(s.updatedAt),
            deleted_at: isoOrNull(s.deletedAt),
            firings: store.pushSchedules.firings(s.scheduleId).map(f => ({
              fire_time: iso(f.dueAt),
              msg_id: f.msgId === '' ? null : f.msgId,
              error: f.errorCode === 0 ? null : { code: f.errorCode, message: f.errorMessage },
            })),
          })),
        }
      },
    }),
  ]
}
