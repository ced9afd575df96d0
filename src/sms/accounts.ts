import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { smsErrors } from './errors.js'
import { appBalanceDocs, devBalanceDocs } from './sending/docs.js'

export function accountRoutes(deps: AppDeps): RouteSpec[] {
  const { store } = deps
  return [
    {
      method: 'GET',
      url: '/accounts/dev',
      docs: devBalanceDocs,
      config: { auth: 'dev' },
      handler: async req => {
        const b = store.apps.developerBalances(req.devKey ?? '')
        if (!b) throw smsErrors.authFailed()
        return { dev_balance: b.balance, dev_voice: b.voice, dev_industry: b.industry, dev_market: b.market }
      },
    },
    {
      method: 'GET',
      url: '/accounts/app',
      docs: appBalanceDocs,
      handler: async req => {
        const b = store.apps.balances(req.tenant.app.appKey)
        if (!b) throw smsErrors.authFailed()
        return { app_balance: b.balance, app_voice: b.voice, app_industry: b.industry, app_market: b.market }
      },
    },
  ]
}
