import type { Fault } from './app-types.js'
import type { Device } from './steer-types.js'

// What the change events carry (issue 21: every view of the UI live): the items of the control
// plane's lists of what an app configures, and each event's data (the server's src/changes/ and
// src/items/; tied to them by test/client/wire-types.ts).

/** A template as GET /_sandbox/sms/templates lists it: status 0 under review, 1 approved, 2 rejected. */
export interface Template {
  temp_id: number
  template: string
  type: number
  ttl: number
  remark: string
  status: number
  refuse_reason: string | null
  /** When a review under way completes on the app's clock. */
  review_at: string | null
  created_at: string
  updated_at: string
}

/** A signature as GET /_sandbox/sms/signs lists it. */
export interface Sign {
  sign_id: number
  sign: string
  type: number | null
  remark: string
  status: number
  is_default: number
  use_status: number
  refuse_reason: string | null
  review_at: string | null
  created_at: string
  updated_at: string
}

/** An SMS task as GET /_sandbox/sms/schedules lists it. */
export interface SmsSchedule {
  schedule_id: string
  batch: boolean
  temp_id: number
  sign_id: number | null
  tag: string | null
  /** As submitted: `yyyy-MM-dd HH:mm:ss` in SMS_TIME_ZONE. */
  send_time: string
  send_at: string
  state: 'pending' | 'sent' | 'deleted'
  sent_at: string | null
  created_at: string
  updated_at: string
  recipients: Array<{
    msg_id: string
    mobile: string
    temp_para: Record<string, string>
    error: { code: number; message: string } | null
  }>
}

/** A JPush task as GET /_sandbox/push/schedules lists it. */
export interface PushSchedule {
  schedule_id: string
  name: string
  kind: 'single' | 'periodical'
  enabled: boolean
  state: 'active' | 'disabled' | 'expired' | 'deleted'
  trigger: Record<string, unknown>
  push: Record<string, unknown>
  next_fire_time: string | null
  created_at: string
  updated_at: string
  deleted_at: string | null
  firings: Array<{
    fire_time: string
    msg_id: string | null
    error: { code: number; message: string } | null
  }>
}

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
