import type { Device } from '../device.js'
import type { Store } from '../store/index.js'
import { formatLocal, iso, isoOrNull } from '../time.js'

/** An SMS task as its feature's table reads it (sms/schedules/table.ts, a table of the store's). */
type Schedule = NonNullable<ReturnType<Store['schedules']['get']>>
/** A template and a signature as their features' tables read them (a table of the store's each). */
type Template = NonNullable<ReturnType<Store['templates']['get']>>
type Sign = NonNullable<ReturnType<Store['signs']['get']>>

// The control plane's items of what an app configures (templates, signatures, SMS and push
// schedules, devices), made from the store's rows. The lists (src/sandbox) answer them and the
// change events (announce.ts) carry them, so that an event's data is the item the list shows.
// Below the SMS and push APIs (which announce their changes), so they import nothing of either.

/** A review in progress or done: status 0 under review, 1 approved, 2 rejected. */
const review = (r: Pick<Template, 'refuseReason' | 'reviewAt' | 'createdAt' | 'updatedAt'>) => ({
  refuse_reason: r.refuseReason,
  review_at: isoOrNull(r.reviewAt),
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
})

/** GET /_sandbox/sms/templates' item. */
export const templateItem = (t: Template) => ({
  temp_id: t.tempId,
  template: t.template,
  type: t.type as number,
  ttl: t.ttl,
  remark: t.remark,
  status: t.status as number,
  ...review(t),
})

/** GET /_sandbox/sms/signs' item; `used`: messages already went out under it. */
export const signItem = (s: Sign, used: boolean) => ({
  sign_id: s.signId,
  sign: s.sign,
  type: s.type,
  remark: s.remark,
  status: s.status as number,
  is_default: s.isDefault ? 1 : 0,
  // "In use": the default signature (every message without sign_id gets it) or one that messages
  // already went out under.
  use_status: s.isDefault || used ? 1 : 0,
  ...review(s),
})

/** GET /_sandbox/push/devices' item. */
export const deviceItem = (d: Device) => ({
  registration_id: d.registrationId,
  platform: d.platform,
  alias: d.alias,
  tags: d.tags,
  mobile: d.mobile,
  online: d.online,
  /** The maker's channel (null: JPush only), the APNs environment of an iOS build. */
  channel: d.channel,
  apns_environment: d.apnsEnvironment,
  last_online_time: isoOrNull(d.lastOnlineAt),
})

/** GET /_sandbox/sms/schedules' item: the task with each recipient's msg_id and outcome. */
export function smsScheduleItem(store: Pick<Store, 'schedules'>, s: Schedule, timeZone: string) {
  return {
    schedule_id: s.scheduleId,
    batch: s.batch,
    temp_id: s.tempId,
    sign_id: s.signId,
    tag: s.tag,
    send_time: formatLocal(s.sendAt, timeZone),
    send_at: iso(s.sendAt),
    state: s.status,
    sent_at: isoOrNull(s.sentAt),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    recipients: store.schedules.recipients(s.scheduleId).map(r => ({
      msg_id: r.msgId,
      mobile: r.mobile,
      temp_para: r.tempPara,
      error: r.errorCode === null ? null : { code: r.errorCode, message: r.errorMessage ?? '' },
    })),
  }
}

/**
 * A push task as its table (push/schedules/table.ts) answers it, named through the store's `Tables`:
 * the feature's table declares it there, and this module, below the features, imports none of them.
 */
type PushSchedule = NonNullable<ReturnType<Store['pushSchedules']['get']>>

/** deleted; expired (its time or end has passed); disabled; or active. */
const stateOf = (s: PushSchedule, now: number): 'deleted' | 'expired' | 'active' | 'disabled' =>
  s.deletedAt !== null ? 'deleted' : s.endsAt <= now ? 'expired' : s.enabled ? 'active' : 'disabled'

/** GET /_sandbox/push/schedules' item: the task, its state at `now`, every occurrence it fired. */
export function pushScheduleItem(store: Pick<Store, 'pushSchedules'>, s: PushSchedule, now: number) {
  return {
    schedule_id: s.scheduleId,
    name: s.name,
    kind: s.kind,
    enabled: s.enabled,
    state: stateOf(s, now),
    trigger: s.trigger,
    push: s.push,
    next_fire_time: isoOrNull(s.nextDueAt),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    deleted_at: isoOrNull(s.deletedAt),
    firings: store.pushSchedules.firings(s.scheduleId).map(f => ({
      fire_time: iso(f.dueAt),
      msg_id: f.msgId === '' ? null : f.msgId,
      error: f.errorCode === 0 ? null : { code: f.errorCode, message: f.errorMessage },
    })),
  }
}
