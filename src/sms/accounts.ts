import type { RouteSpec } from '../http/routes.js'
import type { SmsDeps } from './context.js'
import { smsErrors } from './errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which credential pair the route takes: appKey:masterSecret (default) or devKey:devSecret. */
    auth?: 'app' | 'dev'
  }
  interface FastifyRequest {
    devKey?: string
  }
}

export function accountRoutes(deps: SmsDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/accounts/dev',
      config: { auth: 'dev' },
      handler: async req => {
        const dev = store.apps.developer(req.devKey ?? '')
        if (!dev) throw smsErrors.authFailed()
        const b = dev.balances
        return { dev_balance: b.balance, dev_voice: b.voice, dev_industry: b.industry, dev_market: b.market }
      },
    },
    {
      method: 'GET',
      url: '/accounts/app',
      handler: async req => {
        const app = store.apps.get(req.tenant.app.appKey)
        if (!app) throw smsErrors.authFailed()
        const b = app.balances
        return { app_balance: b.balance, app_voice: b.voice, app_industry: b.industry, app_market: b.market }
      },
    },
  ]
}
