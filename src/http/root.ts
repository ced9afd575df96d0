import type { FastifyInstance } from 'fastify'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../seed/fixtures.js'

/** An index at `/` for people exploring with curl (other paths outside the prefixes: surfaces.ts). */
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
}
