import type { Feature } from '../../http/feature.js'
import { batchRoutes } from './batch.js'
import { pushClickRoutes } from './clicks.js'
import { createPushClickStore } from './clicks-table.js'
import { createPushDeliveryStore } from './delivery/deliveries-table.js'
import { duePushes } from './delivery/delivery.js'
import { createPushFanOut } from './delivery/fan-out-table.js'
import { dueFanOuts } from './delivery/slices.js'
import { createVendorQuotaStore } from './delivery/vendor-quota-table.js'
import { createPushGroupStore } from './groups-table.js'
import { pushSources } from './items.js'
import { pushMessageRoutes } from './messages.js'
import { pushRoutes } from './push.js'
import { createPushStore } from './pushes-table.js'
import { pushDeliveryRoutes } from './sandbox.js'
import { createPushWithdrawalStore } from './withdrawals-table.js'

// Sending a push (jpush-api.md §2–§5): the push host's routes (push.ts: push, validate, cid,
// withdraw, quota; batch.ts: batch and group push), the push as its body reads (payload.ts,
// audience.ts, file-audience.ts, options.ts, notification.ts, callback.ts, coerce.ts, sm2.ts), and
// its delivery (delivery/: accepting a push, its one fan-out path, delivery over time, SMS
// fallback, push callbacks; delivery/ imports the body's readers, never the routes), and what the
// control plane shows and steers of it: what each device received (messages.ts:
// /_sandbox/push/messages, /_sandbox/push/devices/{registration_id}/deliveries), as its items
// (items.ts: push.delivered, push.sent, which the event stream carries too), each device's
// delivery of a push (sandbox.ts: /_sandbox/push/messages/{msg_id}/deliveries) and a device
// opening a push (clicks.ts). Every
// other feature that pushes (schedules, templates, files) goes through what this file exports. Its
// tables: the pushes accepted (pushes-table.ts), each device's delivery (delivery/deliveries-table.ts)
// and a broadcast's deliveries written a slice of the registry at a time (delivery/fan-out-table.ts,
// over the devices push/device registered), clicks (clicks-table.ts), withdrawals
// (withdrawals-table.ts), vendor quotas (delivery/vendor-quota-table.ts) and the groups of apps
// (groups-table.ts).

export { type Audience, parseAudience } from './audience.js'
export { schemas as clickSchemas } from './clicks.js'
export type { Click, ClickCount, ClickKind } from './clicks-table.js'
export { strictTypesOf } from './coerce.js'
export { pushClicked } from './delivery/callbacks.js'
export type { RouteCount } from './delivery/deliveries-table.js'
export { setDeviceOnline } from './delivery/delivery.js'
export { dispatchPush, sendPush } from './delivery/dispatch.js'
export { SLICED_ABOVE } from './delivery/slices.js'
export { type FileLookup, fileAudience, fileId, noSuchFile, readFileAudience } from './file-audience.js'
export { pushItems, pushSendItems, pushSentItem } from './items.js'
export { NOTIFICATION_PLATFORMS, parseNotification } from './notification.js'
export { isPlanName } from './options.js'
export { type PushRequest, parsePush, payload, sent, strictness } from './payload.js'
export { accepted, NOBODY } from './push.js'
export type { Push } from './pushes-table.js'
export { deliveryItem as pushDeliveryItem, schemas as pushDeliverySchemas } from './sandbox.js'
export { isSm2, parseSm2Push, sm2Errors } from './sm2.js'

export const pushSend = {
  name: 'push/send',
  vendor: { push: [pushRoutes, batchRoutes] },
  sandbox: [pushMessageRoutes, pushDeliveryRoutes, pushClickRoutes],
  // A sliced push's next slices (fanOut), then each delivery's arrival, expiry and SMS fallback
  // (followUp), after the callbacks of the same tick.
  due: { fanOut: [dueFanOuts], followUp: [duePushes] },
  tables: engine => {
    const pushDeliveries = createPushDeliveryStore(engine)
    return {
      pushes: createPushStore(engine),
      pushDeliveries,
      // Keeps the deliveries' count of each app as its INSERT … SELECT adds rows.
      pushFanOut: createPushFanOut(engine, pushDeliveries),
      pushClicks: createPushClickStore(engine),
      pushWithdrawals: createPushWithdrawalStore(engine),
      pushVendorQuota: createVendorQuotaStore(engine),
      pushGroups: createPushGroupStore(engine),
    }
  },
  stream: pushSources,
} satisfies Feature
