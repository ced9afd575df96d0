import { z } from 'zod'
import { listRoute } from '../control/list-route.js'
import type { Hub } from '../events/hub.js'
import type { RouteSpec } from '../http/routes.js'
import { items } from '../items/items.js'
import { callbackItem } from '../items/views.js'
import { CALLBACK_STATES, CALLBACK_TYPES } from '../store/callbacks/outbox.js'
import type { Store } from '../store/index.js'

const TYPES = CALLBACK_TYPES
const STATES = CALLBACK_STATES

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
