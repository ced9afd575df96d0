import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { queryLimit, schemaRoute } from '../http/schema.js'
import { iso, isoOrNull } from './schemas.js'

const schemas = {
  query: z.object({ limit: queryLimit }),
  callbacks: z.object({
    callback_url: z.string().nullable(),
    callbacks: z.array(
      z.object({
        id: z.number(),
        type: z.string(),
        /** The body posted to the app's URL. */
        data: z.record(z.string(), z.unknown()),
        state: z.string(),
        attempts: z.array(
          z.object({
            attempt: z.number(),
            url: z.string(),
            at: z.string(),
            status_code: z.number().nullable(),
            error: z.string().nullable(),
          }),
        ),
        next_attempt_at: z.string().nullable(),
        created_at: z.string(),
      }),
    ),
  }),
}

/** Every callback of the calling app, newest first, with each delivery attempt. */
export function callbackRoutes(deps: Pick<AppDeps, 'store'>): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/callbacks',
      schema: { querystring: schemas.query, response: { 200: schemas.callbacks } },
      handler: async req => {
        const { app } = req.tenant
        return {
          callback_url: app.callbackUrl,
          callbacks: store.callbacks.list(app.appKey, req.query.limit).map(c => ({
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
            next_attempt_at: isoOrNull(c.nextAttemptAt),
            created_at: iso(c.createdAt),
          })),
        }
      },
    }),
  ]
}
