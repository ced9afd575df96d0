import { z } from 'zod'
import { sandboxErrors } from '../../control/errors.js'
import { listRoute } from '../../control/list-route.js'
import { warnedCalls, withWarnings } from '../../control/warned.js'
import type { PipelineDeps } from '../../deps.js'
import type { Hub } from '../../events/hub.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { pushSendItems as items, pushItems } from './items.js'
import { deliveryItem as pushDeliveryItem, schemas as pushDeliverySchemas } from './sandbox.js'

// What each device received of each push, with the production advisor's warnings on the call that
// pushed it (control/warned.ts): the deliveries as their items (items.ts), which the event stream
// carries too, and every push to one device (sandbox.ts's delivery item).

export function pushMessageRoutes(deps: PipelineDeps & { hub: Hub }): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/push/messages',
      summary: 'What each device received of each push',
      key: 'messages',
      filters: ['registration_id', 'alias', 'msg_id'],
      item: items.push,
      topic: 'push',
      read: (appKey, q) => {
        const item = pushItems(store, appKey)
        const warned = warnedCalls(store, appKey)
        return store.pushDeliveries
          .list(appKey, { ...q, rid: q.registration_id, msgId: q.msg_id })
          .map(d => ({ ...item(d), ...withWarnings(warned('msg_id', d.msgId)) }))
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/push/devices/:registration_id/deliveries',
      docs: {
        summary: 'Every push to one device, and how it went: route, reason, status',
        description: `The pushes that targeted the device, oldest first, whatever became of them (received, waiting, expired,
withdrawn), each with \`msg_id\`, \`status\`, \`route\` and \`reason\` (docs/push.md "How a push reaches a phone"), and
\`warnings\`: the production advisor's on the call that pushed it, each with that call's journal \`request_seq\` (docs/advisor.md).`,
        errors: [sandboxErrors.unknownRegistrationId()],
      },
      schema: {
        // push/device's rid params, written out here: push/device imports this feature, not the other way.
        params: z.object({ registration_id: z.string() }),
        response: {
          200: z.object({
            deliveries: z.array(
              pushDeliverySchemas.delivery.extend({
                msg_id: z.string(),
                warnings: items.push.shape.warnings,
              }),
            ),
          }),
        },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const { registration_id: rid } = req.params
        if (!store.pushDevices.get(appKey, rid)) throw sandboxErrors.unknownRegistrationId()
        // The calls answered so far are in the journal, their warnings too (http/journal.ts: journalFirst).
        const warned = warnedCalls(store, appKey)
        return {
          deliveries: store.pushDeliveries.search(appKey, { rid }).map(d => ({
            msg_id: d.msgId,
            ...pushDeliveryItem(d),
            ...withWarnings(warned('msg_id', d.msgId)),
          })),
        }
      },
    }),
  ]
}
