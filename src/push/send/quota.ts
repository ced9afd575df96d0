import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { isObject } from '../values.js'
import { quotaDocs } from './variants-docs.js'

// GET /v3/push/quota (jpush-api.md §5.14): the vendor channels' daily quotas, in the flat
// code/message/data shape (jsdk QuotaGetResult reads exactly these keys). The sandbox has no
// vendor channels: the values are the app's `settings.quota` (seed/push-settings.ts), -1
// ("unlimited") for whatever it leaves out. Counts in the push rate window, as the service's does.

const VENDORS = ['xiaomi_quota', 'oppo_quota', 'vivo_quota'] as const
const KINDS = ['system', 'operation'] as const
const UNLIMITED = { total: -1, used: -1 }

const count = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= -1 ? n : -1)
const detail = (v: unknown) => (isObject(v) ? { total: count(v.total), used: count(v.used) } : UNLIMITED)

type Quota = Record<(typeof VENDORS)[number], Record<(typeof KINDS)[number], { total: number; used: number }>>

export function quotaOf(settings: Record<string, unknown>): Quota {
  const own = isObject(settings.quota) ? settings.quota : {}
  const out = {} as Quota
  for (const vendor of VENDORS) {
    const v = isObject(own[vendor]) ? own[vendor] : {}
    out[vendor] = { system: detail(v.system), operation: detail(v.operation) }
  }
  return out
}

export function quotaRoutes(_deps: AppDeps): RouteSpec[] {
  return [
    {
      method: 'GET',
      url: '/push/quota',
      docs: quotaDocs,
      handler: async req => ({ code: 0, message: 'success', data: quotaOf(req.tenant.app.settings) }),
    },
  ]
}
