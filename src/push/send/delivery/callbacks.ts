import type { PipelineDeps } from '../../../deps.js'
import type { App } from '../../../store/apps/apps.js'
import type { CallbackType } from '../../../store/callbacks/outbox.js'
import type { Json } from '../../values.js'
import { CALLBACK_BITS, type PushCallback, parseCallback } from '../callback.js'
import type { Delivery } from './deliveries-table.js'

// A push's `callback` (jpush-api.md §5.1: url, params, type bits 1 delivered, 2 clicked, 4 not
// delivered, 8 push succeeded). The events it asks for go through the callback outbox
// (store/callbacks/outbox.ts) to its own URL, or the app's callback_url without one, and are delivered by
// the courier (callbacks/courier.ts, outgoing.ts) with retries. Everything here runs inside a write job.

/** What the callbacks need: the store (called from the pipelines, or by the control plane's click). */
type Deps = Pick<PipelineDeps, 'store'>

/** Device events per POST: a broadcast's receipts go out in batches, not one request per device. */
export const ROWS_PER_CALLBACK = 100

const TYPES: Record<number, { type: CallbackType; event: string }> = {
  [CALLBACK_BITS.delivered]: { type: 'JPUSH_DELIVERED', event: 'delivered' },
  [CALLBACK_BITS.clicked]: { type: 'JPUSH_CLICKED', event: 'clicked' },
  [CALLBACK_BITS.notDelivered]: { type: 'JPUSH_NOT_DELIVERED', event: 'not_delivered' },
  [CALLBACK_BITS.pushSucceeded]: { type: 'JPUSH_PUSH_SUCCEEDED', event: 'push_succeeded' },
}

/** A push as its callbacks need it. */
export interface CallingPush {
  msgId: string
  callback: PushCallback | undefined
}

type DeviceRow = Pick<Delivery, 'registrationId' | 'platform'> & { at: number }

const seconds = (ms: number) => Math.floor(ms / 1000)

/** Enqueues the event `bit` if the push asked for it and has somewhere to send it; says whether. */
function enqueue(deps: Deps, app: App, push: CallingPush, bit: number, now: number, extra: Json): boolean {
  const cb = push.callback
  const url = cb?.url ?? app.callbackUrl
  if (!cb || (cb.type & bit) === 0 || !url) return false
  const { type, event } = TYPES[bit]!
  const body = { msg_id: push.msgId, callback_type: bit, event, params: cb.params, ...extra }
  deps.store.callbacks.enqueue(app.appKey, type, body, now, url)
  return true
}

function enqueueRows(deps: Deps, app: App, push: CallingPush, bit: number, rows: DeviceRow[], now: number) {
  let queued = false
  for (let i = 0; i < rows.length; i += ROWS_PER_CALLBACK) {
    const batch = rows.slice(i, i + ROWS_PER_CALLBACK).map(r => ({
      registration_id: r.registrationId,
      platform: r.platform,
      time: seconds(r.at),
    }))
    queued = enqueue(deps, app, push, bit, now, { rows: batch }) || queued
  }
  return queued
}

/** A push was accepted: push succeeded (8), what reached devices at once (1), what never can (4). */
export function pushAccepted(
  deps: Deps,
  app: App,
  push: CallingPush & { sendno: string },
  deliveries: readonly Delivery[],
  now: number,
): void {
  if (!push.callback) return
  pushSucceeded(deps, app, push, deliveries.length, now)
  deliveriesMade(deps, app, push, deliveries, now)
}

/** Push succeeded (8), with how many devices it targets: once its deliveries are all written. */
export function pushSucceeded(
  deps: Deps,
  app: App,
  push: CallingPush & { sendno: string },
  targets: number,
  now: number,
): void {
  enqueue(deps, app, push, CALLBACK_BITS.pushSucceeded, now, {
    sendno: push.sendno,
    targets,
    time: seconds(now),
  })
}

/** Of deliveries just written: what reached devices at once (1), what never can (4). */
export function deliveriesMade(
  deps: Deps,
  app: App,
  push: CallingPush,
  deliveries: readonly Delivery[],
  now: number,
): void {
  if (!push.callback) return
  const rows = (status: Delivery['status']) =>
    deliveries.filter(d => d.status === status).map(d => ({ ...d, at: now }))
  enqueueRows(deps, app, push, CALLBACK_BITS.delivered, rows('delivered'), now)
  enqueueRows(deps, app, push, CALLBACK_BITS.notDelivered, rows('expired'), now)
}

/** The push of a stored msg_id, with the callback it was accepted with. */
function callingPush(deps: Deps, app: App, msgId: string): CallingPush | undefined {
  const push = deps.store.pushes.get(app.appKey, msgId)
  const raw = push?.payload.callback
  if (!push || raw === undefined || raw === null) return undefined
  return { msgId, callback: parseCallback(raw) }
}

/** Deliveries that changed state later (a device came online: 1; time_to_live ran out: 4). */
export function deliveriesSettled(
  deps: Deps,
  app: App,
  bit: typeof CALLBACK_BITS.delivered | typeof CALLBACK_BITS.notDelivered,
  changed: readonly Delivery[],
  now: number,
): void {
  const byPush = new Map<string, DeviceRow[]>()
  for (const d of changed) {
    const at = bit === CALLBACK_BITS.delivered ? (d.deliveredAt ?? now) : d.expiresAt
    byPush.set(d.msgId, [...(byPush.get(d.msgId) ?? []), { ...d, at }])
  }
  for (const [msgId, rows] of byPush) {
    const push = callingPush(deps, app, msgId)
    if (push) enqueueRows(deps, app, push, bit, rows, now)
  }
}

/**
 * A user opened the push on a device (the control plane's click): the clicked callback (2), if the
 * push asked for one. Call inside a write job, with the app's `now`; returns whether one was queued.
 */
export function pushClicked(deps: Deps, app: App, msgId: string, rid: string, now: number): boolean {
  const push = callingPush(deps, app, msgId)
  const device = deps.store.pushDevices.get(app.appKey, rid)
  if (!push || !device) return false
  return enqueueRows(deps, app, push, CALLBACK_BITS.clicked, [{ ...device, at: now }], now)
}
