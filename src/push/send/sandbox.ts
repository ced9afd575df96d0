import { z } from 'zod'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { iso, isoOrNull } from '../../time.js'
import { clickErrors } from './clicks.js'
import type { Delivery } from './delivery/deliveries-table.js'

// Where a push went, device by device: the route each delivery took or why it did not arrive
// (delivery/route.ts), as the control plane shows it.

export const schemas = {
  /** One device of one push, however it went (GET /_sandbox/push/messages/{msg_id}/deliveries). */
  delivery: z.object({
    registration_id: z.string(),
    platform: z.string(),
    /** pending (waits for the device), delivered, expired, withdrawn. */
    status: z.string(),
    /** The channel it took or waits on; null: refused before any channel took it. */
    route: z.string().nullable(),
    /** Why it did not arrive at once, or at all; null: it did. */
    reason: z.string().nullable(),
    delivered_at: z.string().nullable(),
    expires_at: z.string(),
  }),
}

/** One device of one push, however it went (schemas.delivery). */
export const deliveryItem = (d: Delivery) => ({
  registration_id: d.registrationId,
  platform: d.platform,
  status: d.status,
  route: d.route,
  reason: d.reason,
  delivered_at: isoOrNull(d.deliveredAt),
  expires_at: iso(d.expiresAt),
})

/** Every device of one push, and how it went. */
export function pushDeliveryRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/messages/:msg_id/deliveries',
      docs: {
        summary: 'Every device of one push, and how it went: route, reason, status',
        description: `One entry per targeted device, whatever became of it: \`status\` (pending, delivered, expired, withdrawn),
\`route\` (jpush, a maker's channel, apns-production, apns-development; null: refused before any channel took it) and
\`reason\` (wrong-apns-environment, vendor-quota-exhausted, offline-no-vendor-route, device-offline; null: it arrived at
once). What the report host counts (docs/push.md "How a push reaches a phone").`,
        errors: [clickErrors.noPush('<msg_id>')],
      },
      schema: {
        params: z.object({ msg_id: z.string() }),
        response: { 200: z.object({ deliveries: z.array(schemas.delivery) }) },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const { msg_id: msgId } = req.params
        if (!store.pushes.get(appKey, msgId)) throw clickErrors.noPush(msgId)
        return {
          deliveries: store.pushDeliveries.ofPush(appKey, msgId).map(deliveryItem),
        }
      },
    }),
  ]
}
