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
  /** The maker's channel: huawei, honor, xiaomi, oppo, vivo, meizu, fcm (android), hmos; none/null: JPush only. */
  channel?: string | null
  /** iOS: the APNs environment of the build (production unless said). */
  apns_environment?: 'development' | 'production'
}

export interface Device {
  registration_id: string
  platform: string
  alias: string | null
  tags: string[]
  mobile: string | null
  online: boolean
  /** The maker's channel; null: JPush only. */
  channel: string | null
  /** iOS: development or production; null elsewhere (and for the fixtures' phones: either). */
  apns_environment: string | null
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

/** An image of the image API (POST /v3/images/…), as GET /_sandbox/push/images shows it. */
export interface PushImage {
  media_id: string
  /** 1 big picture, 2 large icon, 3 small icon. */
  image_type: number
  source: 'url' | 'file'
  image_url: string | null
  /** What each vendor channel adopted (`value`, as the API answered) and from what. */
  channels: Record<string, { value: string; from: string }>
  files: Array<{
    channel: string
    file_name: string
    content_type: string
    width: number | null
    height: number | null
    size: number
    uploaded_at: string
    /** Where the control plane answers the bytes as uploaded. */
    url: string
  }>
  created_at: string
  updated_at: string
  expires_at: string
}

/** A test device: a push with options.test_model reaches only these. */
export interface TestDevice {
  registration_id: string
  device_name: string
  platform: string
  created_at: string
}

/** What a push template is made of: a push without audience, its variables `{{name}}`. */
export interface PushTemplateInput {
  name: string
  push: Record<string, unknown>
  /** Optional: the variables, which must be the push's. */
  params?: string[]
}

export interface PushTemplate {
  id: string
  name: string
  /** The variables each template push gives in `keys`. */
  params: string[]
  push: Record<string, unknown>
  created_at: string
  updated_at: string
}
