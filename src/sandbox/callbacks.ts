import type { AppDeps } from '../deps.js'
import { limitOf } from '../http/query.js'
import type { RouteSpec } from '../http/routes.js'

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/** Every callback of the calling app, newest first, with each delivery attempt. */
export function callbackRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/callbacks',
      handler: async req => {
        const limit = limitOf((req.query as Record<string, unknown>).limit)
        const { app } = req.tenant
        return {
          callback_url: app.callbackUrl,
          callbacks: store.callbacks.list(app.appKey, limit).map(c => ({
            id: c.id,
            type: c.type,
            data: c.data,
            state: c.state,
            attempts: c.log.map(a => ({
              attempt: a.attempt,
              url: a.url,
              at: iso(a.at),
              status_code: a.statusCode,
              error: a.error,
            })),
            next_attempt_at: iso(c.nextAttemptAt),
            created_at: iso(c.createdAt),
          })),
        }
      },
    },
  ]
}
