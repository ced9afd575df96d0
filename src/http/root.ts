import type { FastifyInstance } from 'fastify'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../seed/fixtures.js'
import { smsErrors } from '../sms/errors.js'

/**
 * Outside the three prefixes: an index for people exploring with curl, and the vendor envelope
 * (not Fastify's own shape) for any other path.
 */
export function registerRoot(app: FastifyInstance): void {
  app.get('/', async () => ({
    name: 'jiguang-sandbox',
    apis: {
      sms: '/v1 (JSMS SMS REST API v1)',
      push: '/v3 (JPush REST API v3)',
      sandbox: '/_sandbox (inspection and control, same credentials)',
    },
    default_app: { app_key: DEFAULT_APP_KEY, master_secret: DEFAULT_MASTER_SECRET },
  }))
  app.setNotFoundHandler((_req, reply) => {
    const e = smsErrors.apiNotFound()
    return reply.code(e.status).type('application/json; charset=utf-8').send(e.toBody())
  })
}
