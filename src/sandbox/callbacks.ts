import { z } from 'zod'
import type { Hub } from '../events/hub.js'
import type { RouteSpec } from '../http/routes.js'
import { items } from '../items/items.js'
import { callbackItem } from '../items/views.js'
import type { CallbackType } from '../store/callbacks/outbox.js'
import type { Store } from '../store/index.js'
import { listRoute } from './lists/route.js'

/** The JSMS callbacks (jsms-api.md §6), and those a push's `callback` asks for (push-callbacks.ts). */
const TYPES = [
  'SMS_REPORT',
  'SMS_REPLY',
  'SMS_TEMPLATE',
  'SMS_SIGN',
  'JPUSH_DELIVERED',
  'JPUSH_CLICKED',
  'JPUSH_NOT_DELIVERED',
  'JPUSH_PUSH_SUCCEEDED',
] as const satisfies readonly CallbackType[]
const STATES = ['pending', 'sending', 'delivered', 'failed'] as const

/**
 * Every callback of the calling app (JSMS's and those of pushes) with each delivery attempt, latest
 * change first: a callback's seq is that of its last change (queued, then each attempt), so
 * `after=` finds the ones that moved.
 */
export function callbackRoutes(deps: { store: Store; hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/callbacks',
      summary: 'Callbacks of the app (JSMS and push), each with its delivery attempts',
      key: 'callbacks',
      filters: ['kind', 'state', 'mobile', 'msg_id', 'registration_id'],
      values: { kind: TYPES, state: STATES },
      item: items.callback,
      topic: 'callbacks',
      read: (appKey, q) =>
        store.callbacks.list(appKey, { ...q, msgId: q.msg_id, rid: q.registration_id }).map(callbackItem),
      extra: {
        schema: { callback_url: z.string().nullable() },
        read: req => ({ callback_url: req.tenant.app.callbackUrl }),
      },
    }),
  ]
}
