import type { PipelineDeps } from '../../deps.js'
import { sandboxErrors } from '../../sandbox/errors.js'
import type { App } from '../../store/apps/apps.js'
import type { Click, ClickKind } from '../../store/push/clicks.js'
import type { Push } from '../../store/push/pushes.js'
import { parseNotification } from '../send/notification.js'
import { isObject } from '../values.js'

// A device opens a push (issue 12 §5): what the real service learns from its SDK, steered here by
// the control plane. Counted by the report host (report-counts.ts) and the user statistics.

/**
 * Why a click is refused, in the control plane's envelope: 404 for what is not the app's, 409 for
 * a device that has nothing to open (a click needs a push the device received).
 */
export const clickErrors = {
  noPush: (msgId: string) => sandboxErrors.unknownMsgId(`no push with msg_id ${msgId} in this app`),
  noDevice: (rid: string) =>
    sandboxErrors.unknownRegistrationId(`no device with registration_id ${rid} in this app`),
  notReceived: (rid: string, msgId: string, why: string) =>
    sandboxErrors.notReceived(`registration_id ${rid} has not received msg_id ${msgId}: ${why}`),
}

/** What a device of this platform shows: the push's notification for it, else its message. */
function kindOf(push: Push, platform: Click['platform']): ClickKind {
  const notification = isObject(push.payload.notification) ? parseNotification(push.payload.notification) : {}
  return notification[platform] === undefined && push.payload.message !== undefined
    ? 'message'
    : 'notification'
}

/**
 * Records that `rid` opened `msgId` at `now`, inside a write job. Once per device and push (a
 * notification leaves the tray when opened): a repeat answers the first click, with `first` false.
 */
export function recordClick(
  deps: Pick<PipelineDeps, 'store'>,
  app: App,
  msgId: string,
  rid: string,
  now: number,
): { click: Click; first: boolean } {
  const { store } = deps
  const push = store.pushes.get(app.appKey, msgId)
  if (!push) throw clickErrors.noPush(msgId)
  const device = store.pushDevices.get(app.appKey, rid)
  if (!device) throw clickErrors.noDevice(rid)
  const earlier = store.pushClicks.get(app.appKey, msgId, rid)
  if (earlier) return { click: earlier, first: false }
  const [delivery] = store.pushDeliveries.search(app.appKey, { rid, msgId })
  if (!delivery) throw clickErrors.notReceived(rid, msgId, 'the device was not in its audience')
  if (delivery.deliveredAt === null) {
    throw clickErrors.notReceived(
      rid,
      msgId,
      delivery.status === 'pending'
        ? 'the device is offline (the push arrives when it comes online within time_to_live)'
        : `the push is ${delivery.status}`,
    )
  }
  const click: Click = {
    msgId,
    appKey: app.appKey,
    registrationId: rid,
    platform: delivery.platform,
    kind: kindOf(push, delivery.platform),
    clickedAt: now,
  }
  store.pushClicks.insert(click)
  return { click, first: true }
}
