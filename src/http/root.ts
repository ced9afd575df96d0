import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../seed/fixtures.js'
import type { RouteSpec } from './routes.js'

/** An index at `/` for people exploring with curl (other paths outside the prefixes: surfaces.ts). */
export function registerRoot(app: FastifyInstance): void {
  const index: RouteSpec = {
    method: 'GET',
    url: '/',
    docs: {
      summary: 'What this server is, where its APIs are, the default credentials',
      answers: {
        200: z.object({
          name: z.literal('jiguang-sandbox'),
          apis: z.record(z.string(), z.string()),
          docs: z.string(),
          default_app: z.object({ app_key: z.string(), master_secret: z.string() }),
        }),
      },
    },
    handler: async () => ({
      name: 'jiguang-sandbox',
      apis: {
        sms: '/v1 (JSMS SMS REST API v1)',
        push: '/v3 (JPush REST API v3)',
        sandbox: '/_sandbox (inspection and control, same credentials)',
      },
      docs: '/_sandbox/docs (OpenAPI: /_sandbox/openapi.json)',
      default_app: { app_key: DEFAULT_APP_KEY, master_secret: DEFAULT_MASTER_SECRET },
    }),
  }
  app.route(index)
}
