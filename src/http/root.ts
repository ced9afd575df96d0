import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../seed/fixtures.js'
import type { RouteSpec } from './routes.js'

const INDEX = {
  name: 'jiguang-sandbox',
  apis: {
    sms: '/v1 (JSMS SMS REST API v1)',
    push: '/v3 (JPush REST API v3)',
    sandbox: '/_sandbox (inspection and control, same credentials)',
  },
  docs: '/_sandbox/docs (OpenAPI: /_sandbox/openapi.json)',
  ui: '/_sandbox/ui/ (the web UI: open it in a browser)',
  default_app: { app_key: DEFAULT_APP_KEY, master_secret: DEFAULT_MASTER_SECRET },
} as const

/** A browser asks for HTML (curl and the SDKs do not): it is sent to the web UI instead. */
const wantsPage = (accept: string | undefined) => /\btext\/html\b/i.test(accept ?? '')

/**
 * An index at `/` for people exploring with curl, and the way in to the web UI for people with a
 * browser (other paths outside the prefixes: surfaces.ts).
 */
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
          ui: z.string(),
          default_app: z.object({ app_key: z.string(), master_secret: z.string() }),
        }),
        302: {
          description: 'With `Accept: text/html` (a browser): to the web UI, /_sandbox/ui/.',
          media: null,
        },
      },
    },
    handler: async (req, reply) => {
      reply.header('vary', 'Accept')
      return wantsPage(req.headers.accept) ? reply.redirect('/_sandbox/ui/', 302) : INDEX
    },
  }
  app.route(index)
}
