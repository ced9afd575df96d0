// What the steering endpoints take and answer: the devices a test plays, the carrier's reports,
// the handset's replies, the reviewer's decisions (the server's src/sandbox schemas; tied to them
// by test/client/wire-types.ts and test/client/steering.test.ts).

/** A push device as POST /_sandbox/push/devices creates it. */
export interface NewDevice {
  platform: 'android' | 'ios' | 'hmos' | 'quickapp' | 'winphone'
  /** Made for the platform when left out. */
  registration_id?: string
  alias?: string | null
  tags?: string[]
  /** The mobile an SMS fallback of a push goes to. */
  mobile?: string | null
  /** true unless false. */
  online?: boolean
}

export interface Device {
  registration_id: string
  platform: string
  alias: string | null
  tags: string[]
  mobile: string | null
  online: boolean
  last_online_time: string | null
}

/** A device brought online or offline, and how many waiting pushes that delivered. */
export type DeviceChange = Device & { delivered: number }

/** A push opened on a device (POST /_sandbox/push/messages/{msg_id}/clicks). */
export interface Click {
  msg_id: string
  registration_id: string
  platform: string
  kind: 'notification' | 'message'
  clicked_at: string
}

/** A delivery report steered (POST /_sandbox/sms/reports). */
export interface SteeredReport {
  msg_id: string
  mobile: string
  status: number
  report_at: string
}

/** An uplink reply played (POST /_sandbox/sms/replies); TD, T or 退订 unsubscribe. */
export interface Replied {
  mobile: string
  content: string
  reply_time: string
  unsubscribed: boolean
}

/** 1 approves, 2 rejects (with a reason). */
export type Decision = 1 | 2

export interface DecidedTemplate {
  temp_id: number
  template: string
  type: number
  ttl: number
  remark: string
  status: number
  refuse_reason: string | null
}

export interface DecidedSign {
  sign_id: number
  sign: string
  status: number
  is_default: number
  use_status: number
  refuse_reason: string | null
}
