import type { Fault } from './app-types.js'
import type { Device } from './steer-types.js'
import type { ItemOf } from './wire.js'

// What the change events carry (issue 21: every view of the UI live): the items of the control
// plane's lists of what an app configures (read out of the generated description, openapi.ts),
// and each event's data (written out here: events are not operations; the server's src/changes/,
// tied to them by test/client/wire-types.ts).

/** A template as GET /_sandbox/sms/templates lists it: status 0 under review, 1 approved, 2 rejected. */
export type Template = ItemOf<'getSandboxSmsTemplates', 'templates'>

/** A signature as GET /_sandbox/sms/signs lists it. */
export type Sign = ItemOf<'getSandboxSmsSigns', 'signs'>

/** An SMS task as GET /_sandbox/sms/schedules lists it. */
export type SmsSchedule = ItemOf<'getSandboxSmsSchedules', 'schedules'>

/** A JPush task as GET /_sandbox/push/schedules lists it. */
export type PushSchedule = ItemOf<'getSandboxPushSchedules', 'schedules'>

/** An accepted push as the app sent it (`push.sent`), whether or not it reached a device. */
export interface PushSent {
  seq: number
  msg_id: string
  sendno: string
  cid: string | null
  /** "all" or the platforms, as sent. */
  platform: unknown
  /** "all" or the audience object, as sent. */
  audience: unknown
  notification: unknown
  message: unknown
  /** To every device of the app. */
  broadcast: boolean
  group_msgid: string | null
  plan: string | null
  created_at: string
  withdrawn_at: string | null
  /** An SM2-encrypted push: only its audience is in clear. */
  encrypted?: 'SM2'
}

/** POST /v1/codes/{msg_id}/valid answered, right or not (`code.verified`). */
export interface CodeVerified {
  msg_id: string
  mobile: string
  is_valid: boolean
  /** The refusal (50010 wrong code, 50011 expired, 50012 verified before); null when valid. */
  error: { code: number; message: string } | null
  /** When the code was verified (now, or before for 50012); null while it never was. */
  verified_at: string | null
  expires_at: string
  checked_at: string
}

export interface TemplateChanged {
  action: 'created' | 'modified' | 'deleted'
  temp_id: number
  /** null when deleted. */
  template: Template | null
}

export interface SignChanged {
  action: 'created' | 'modified' | 'deleted'
  sign_id: number
  sign: Sign | null
}

export type ScheduleChanged =
  | {
      api: 'sms'
      action: 'created' | 'updated' | 'deleted'
      schedule_id: string
      schedule: SmsSchedule | null
    }
  | {
      api: 'push'
      action: 'created' | 'updated' | 'deleted'
      schedule_id: string
      schedule: PushSchedule | null
    }

/**
 * One device changed, or (`registration_id: null`, `count`) more than 100 in one request (a tag
 * or alias of many devices): the list is then to be read again.
 */
export interface DeviceChanged {
  action: 'registered' | 'updated' | 'online' | 'offline' | 'deleted'
  registration_id: string | null
  device: Device | null
  count?: number
}

export interface FaultChanged {
  action: 'armed' | 'disarmed' | 'used'
  /** null when every fault was disarmed. */
  fault: Fault | null
  /** How many are armed now. */
  faults: number
}
