import type { Store } from '../store/index.js'
import { deviceItem, pushScheduleItem, signItem, smsScheduleItem, templateItem } from './items.js'

// The change events of what an app configures (issue 21: every view of the UI live): each is
// appended to the event log (store/events/log.ts) inside the write job that makes the change, so
// it exists exactly when the change does and is heard of only once that write is durable. Its
// data is the item as its control-plane list shows it after the change (items.ts), or null when
// the change removed it.

type Log = Pick<Store, 'events'>

/** POST/PUT/DELETE /v1/templates…, the seed. */
export function templateChanged(
  store: Log & Pick<Store, 'templates'>,
  appKey: string,
  action: 'created' | 'modified' | 'deleted',
  tempId: number,
  at: number,
): void {
  const t = action === 'deleted' ? undefined : store.templates.get(appKey, tempId)
  const data = { action, temp_id: tempId, template: t ? templateItem(t) : null }
  store.events.append({ appKey, type: 'template.changed', data, at })
}

/** POST /v1/sign, POST /v1/sign/{id}, DELETE /v1/sign/{id}, the seed. */
export function signChanged(
  store: Log & Pick<Store, 'signs'>,
  appKey: string,
  action: 'created' | 'modified' | 'deleted',
  signId: number,
  at: number,
): void {
  const s = action === 'deleted' ? undefined : store.signs.get(appKey, signId)
  const sign = s ? signItem(s, store.signs.usedByMessages(appKey, signId)) : null
  store.events.append({ appKey, type: 'sign.changed', data: { action, sign_id: signId, sign }, at })
}

export type ScheduleAction = 'created' | 'updated' | 'deleted'

/** POST/PUT/DELETE /v1/schedule…: the task as GET /_sandbox/sms/schedules shows it (deleted too). */
export function smsScheduleChanged(
  store: Log & Pick<Store, 'schedules'>,
  appKey: string,
  action: ScheduleAction,
  scheduleId: string,
  at: number,
  timeZone: string,
): void {
  const s = store.schedules.get(appKey, scheduleId)
  const schedule = s ? smsScheduleItem(store, s, timeZone) : null
  const data = { api: 'sms', action, schedule_id: scheduleId, schedule }
  store.events.append({ appKey, type: 'schedule.changed', data, at })
}

/** POST/PUT/DELETE /v3/schedules…: the task as GET /_sandbox/push/schedules shows it (deleted too). */
export function pushScheduleChanged(
  store: Log & Pick<Store, 'pushSchedules'>,
  appKey: string,
  action: ScheduleAction,
  scheduleId: string,
  at: number,
): void {
  const s = store.pushSchedules.get(appKey, scheduleId)
  const schedule = s ? pushScheduleItem(store, s, at) : null
  const data = { api: 'push', action, schedule_id: scheduleId, schedule }
  store.events.append({ appKey, type: 'schedule.changed', data, at })
}

export type DeviceAction = 'registered' | 'updated' | 'online' | 'offline' | 'deleted'

/**
 * A request that changes more devices than this (a tag or alias of thousands) announces them in
 * one `device.changed` event without a device (`registration_id: null`, `count`): the UI reloads
 * its list rather than the log filling with one event per device.
 */
export const DEVICE_EVENTS_PER_REQUEST = 100

/** Devices registered, changed (tags, alias, mobile), brought online or offline, or deleted. */
export function devicesChanged(
  store: Log & Pick<Store, 'pushDevices'>,
  appKey: string,
  action: DeviceAction,
  rids: readonly string[],
  at: number,
): void {
  if (rids.length === 0) return
  if (rids.length > DEVICE_EVENTS_PER_REQUEST) {
    const data = { action: 'updated', registration_id: null, device: null, count: rids.length }
    store.events.append({ appKey, type: 'device.changed', data, at })
    return
  }
  for (const rid of new Set(rids)) {
    const d = action === 'deleted' ? undefined : store.pushDevices.get(appKey, rid)
    const data = { action, registration_id: rid, device: d ? deviceItem(d) : null }
    store.events.append({ appKey, type: 'device.changed', data, at })
  }
}
