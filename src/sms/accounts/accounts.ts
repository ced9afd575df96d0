import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { smsErrors } from '../errors.js'

// Balances (jsms-api.md §2.7): the app's with its own credentials, the developer's with
// devKey:devSecret.

const balance = z.int().nullable().describe('null: no quota allocated.')
const appBalances = z.object({
  app_balance: balance,
  app_voice: balance,
  app_industry: balance,
  app_market: balance,
})
const devBalances = z.object({
  dev_balance: balance,
  dev_voice: balance,
  dev_industry: balance,
  dev_market: balance,
})

export function accountRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store } = deps
  return [
    vendorRoute({
      method: 'GET',
      url: '/accounts/dev',
      summary: "The developer account's balances, with devKey:devSecret (jsms-api.md §2.7)",
      config: { auth: 'dev' },
      answer: devBalances,
      handler: async req => {
        const b = store.apps.developerBalances(req.devKey ?? '')
        if (!b) throw smsErrors.authFailed()
        return { dev_balance: b.balance, dev_voice: b.voice, dev_industry: b.industry, dev_market: b.market }
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/accounts/app',
      summary: "The app's balances (jsms-api.md §2.7)",
      description:
        "An app with no quota in any bucket (all four null: the seed file's `balances`, or PATCH /_sandbox/app) " +
        'has none assigned: 403 50033, as the docs list it for this call.',
      checks: [smsErrors.appQuotaNotAssigned()],
      answer: appBalances,
      handler: async req => {
        const b = store.apps.balances(req.tenant.app.appKey)
        if (!b) throw smsErrors.authFailed()
        // "app quota not assigned" (jsms-api.md §2.7): no bucket has a quota; one null bucket among
        // others is that bucket's "no quota allocated", answered as null.
        if (b.balance === null && b.voice === null && b.industry === null && b.market === null)
          throw smsErrors.appQuotaNotAssigned()
        return { app_balance: b.balance, app_voice: b.voice, app_industry: b.industry, app_market: b.market }
      },
    }),
  ]
}
