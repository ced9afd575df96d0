import { devicesChanged } from '../../../changes/announce.js'
import type { JobDeps, PipelineDeps } from '../../../deps.js'
import type { DueWork } from '../../../scheduler/due-work.js'
import type { App } from '../../../store/apps/apps.js'
import { tenantOf } from '../../../tenancy.js'
import { CALLBACK_BITS } from '../callback.js'
import { parseSmsMessage } from '../options.js'
import { deliveriesSettled } from './callbacks.js'
import { PUSH_DUE } from './deliveries-table.js'
import { sendSmsFallback } from './sms-fallback.js'

// What happens to a push after it is accepted, as time passes on the app's clock: offline
// devices get it when they come online within time_to_live, and sms_message texts the device's
// mobile when the push had not reached it within delay_time. Everything here runs inside a write
// job. `settle` is the push entry of the due-work list (`duePushes`): run by the scheduler at its
// due time and by the catch-up before each request of the app, so a device that comes online has
// already been texted if its fallback fell due before.

/** Pushes waiting for offline devices expire after time_to_live, and their sms_message fallbacks go out. */
export const duePushes: DueWork<JobDeps> = {
  name: 'push',
  nextDue: [PUSH_DUE],
  run: async (deps, now) => void (await pushTick(deps, now)),
  catchUp: settle,
}

/** Sends due SMS fallbacks, then expires what outlived its time_to_live. */
export function settle(deps: PipelineDeps, app: App, now: number): void {
  const { pushes, pushDeliveries: deliveries } = deps.store
  const tenant = tenantOf(deps.clock, app)
  for (const d of deliveries.smsDue(app.appKey, now)) {
    const push = pushes.get(app.appKey, d.msgId)
    const device = deps.store.pushDevices.get(app.appKey, d.registrationId)
    const raw = push?.payload.sms_message
    if (!push || !device?.mobile || raw === undefined) {
      deliveries.setSms(d.msgId, d.registrationId, { smsMsgId: null, smsError: 0 })
      continue
    }
    // Sent at the moment it fell due, not at the moment the sandbox noticed.
    const result = sendSmsFallback(deps, tenant, parseSmsMessage(raw), device.mobile, d.smsDueAt ?? now)
    deliveries.setSms(d.msgId, d.registrationId, result)
  }
  deliveriesSettled(deps, app, CALLBACK_BITS.notDelivered, deliveries.expire(app.appKey, now), now)
}

/** A device comes online (delivering what waits for it) or goes offline. Returns pushes delivered. */
export function setDeviceOnline(
  deps: PipelineDeps,
  app: App,
  rid: string,
  online: boolean,
  now: number,
): number {
  const { pushDevices, pushDeliveries } = deps.store
  const device = pushDevices.get(app.appKey, rid)
  if (!device) return 0
  if (device.online === online) return 0
  pushDevices.setOnline(app.appKey, rid, online, now)
  devicesChanged(deps.store, app.appKey, online ? 'online' : 'offline', [rid], now)
  if (!online) return 0
  const delivered = pushDeliveries.deliverPending(app.appKey, rid, device.alias, now)
  deliveriesSettled(deps, app, CALLBACK_BITS.delivered, delivered, now)
  return delivered.length
}

/**
 * The scheduler's entry point: settles every app that has pending deliveries or undecided
 * fallbacks, each on its own clock at the scheduler's process time `now`. Returns how many apps it
 * looked at.
 */
export async function pushTick(
  deps: PipelineDeps & Partial<Pick<JobDeps, 'log'>>,
  now = deps.clock.now(),
): Promise<number> {
  return deps.store.write(() => {
    const keys = deps.store.pushDeliveries.appsWithWork()
    for (const key of keys) {
      const app = deps.store.apps.get(key)
      if (!app) continue
      // Each app in a savepoint of its own: a row it cannot settle (a database edited by hand)
      // fails that app's settling alone, logged with it, never every app's.
      try {
        deps.store.transaction(() => settle(deps, app, now + app.clockOffsetMs))
      } catch (err) {
        deps.store.health.observe(err)
        deps.log?.error(
          { err, app_key: key },
          'push deliveries of this app could not be settled; the other apps go on',
        )
      }
    }
    return keys.length
  })
}
