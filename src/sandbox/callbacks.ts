import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { items } from './items.js'
import { listRoute } from './list-route.js'
import { callbackItem } from './views.js'

const TYPES = ['SMS_REPORT', 'SMS_REPLY', 'SMS_TEMPLATE', 'SMS_SIGN'] as const
const STATES = ['pending', 'sending', 'delivered', 'failed'] as const

/**
 * Every callback of the calling app with each delivery attempt, latest change first: a callback's
 * seq is that of its last change (queued, then each attempt), so `after=` finds the ones that moved.
 */
export function callbackRoutes(deps: Pick<AppDeps, 'store' | 'hub'>): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/callbacks',
      key: 'callbacks',
      filters: ['kind', 'state', 'mobile', 'msg_id'],
      values: { kind: TYPES, state: STATES },
      item: items.callback,
      topic: 'callbacks',
      read: (appKey, q) => store.callbacks.list(appKey, { ...q, msgId: q.msg_id }).map(callbackItem),
      extra: {
        schema: { callback_url: z.string().nullable() },
        read: req => ({ callback_url: req.tenant.app.callbackUrl }),
      },
    }),
  ]
}
