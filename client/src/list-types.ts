// The items of the control plane's lists and what each list takes, field for field (the server's
// src/items/items.ts and list-query.ts; test/client/wire-types.ts ties them together). Every
// item carries a `seq`, increasing per app across every list and the event stream.

/** An SMS that went out (GET /_sandbox/sms/messages; the `sms.sent` event). */
export interface Message {
  seq: number
  msg_id: string
  mobile: string
  kind: string
  temp_id: number | null
  sign_id: number | null
  temp_para: Record<string, string> | null
  content: string
  units: number
  tag: string | null
  schedule_id: string | null
  /** The code it carried (codes and voice codes), else null. */
  code: string | null
  created_at: string
}

/** A verification code (GET /_sandbox/sms/codes/latest). */
export interface Code {
  seq: number
  msg_id: string
  mobile: string
  kind: string
  code: string
  expires_at: string
  verified: boolean
  created_at: string
}

/** A push as a device received it (GET /_sandbox/push/messages; the `push.delivered` event). */
export interface Push {
  seq: number
  msg_id: string
  registration_id: string
  platform: string
  /** The device's alias when the push reached it. */
  alias: string | null
  /** The notification as delivered to the device's platform. */
  notification: unknown
  message: unknown
  received_at: string
  sms_msg_id: string | null
  /** DELETE /v3/push/{msg_id} after it arrived: the device had it, the app took it back. */
  withdrawn_at: string | null
}

/** One callback to the app's URL with its attempts (GET /_sandbox/callbacks). */
export interface Callback {
  seq: number
  id: number
  type: string
  /** The body posted to the app's URL. */
  data: Record<string, unknown>
  /** Where it goes: a push's callback.url; null: the app's callback_url. */
  url: string | null
  state: string
  attempts: Array<{
    attempt: number
    url: string
    at: string
    status_code: number | null
    error: string | null
  }>
  next_attempt_at: string | null
  created_at: string
}

/** A delivery report that arrived (GET /_sandbox/sms/reports; the `sms.report` event). */
export interface Report {
  seq: number
  msg_id: string
  mobile: string
  status: number
  receive_time: string
}

/** An uplink reply (GET /_sandbox/sms/replies; the `sms.reply` event). */
export interface Reply {
  seq: number
  mobile: string
  content: string
  reply_time: string
}

/**
 * One request in the app's journal (GET /_sandbox/requests; the `request.completed` event): what
 * was asked, what was answered, and why the sandbox refused it.
 */
export interface RequestEntry {
  seq: number
  /** When it was answered: on the app's clock, and in real time. */
  at: string
  real_at: string
  method: string
  path: string
  /** After `?`, tokens redacted; null: none. */
  query: string | null
  /** `sms` (/v1), `push` (/v3) or `sandbox` (/_sandbox). */
  surface: string
  status: number
  /** The refusal's code and message as answered; null for a 2xx. */
  code: number | null
  message: string | null
  /** Why the sandbox refused, in words: the rule, limit, setting or fault that decided. */
  reason: string | null
  /** Ids the call created (msg_id, schedule_id, temp_id…) or named in its path. */
  ids: Record<string, string[]>
  duration_ms: number
  client: string
  user_agent: string | null
  /** The operator's credentials acted for the app (X-Sandbox-App). */
  operator: boolean
  /** The bodies as text, secrets redacted, each at most 4 KB; null: none. */
  request_body: string | null
  answer_body: string | null
  /** What production would do otherwise with this accepted call (docs/advisor.md); empty: nothing. */
  warnings: Array<{ rule: string; message: string; source: string }>
}

/** An app-clock time: ISO-8601 text, epoch milliseconds or a Date. */
export type Time = string | number | Date

/** What every list takes: a window of seqs and of app-clock time, how many, how long to wait. */
export interface Window {
  /** Only items with a larger seq (the `limit` right after it, still newest first). */
  after?: number
  since?: Time
  until?: Time
  /** 1–1000, 100 by default. */
  limit?: number
  /** When nothing matches yet, hold the request until something does, at most this many ms. */
  wait?: number
}

export interface MessageFilter extends Window {
  mobile?: string
  msg_id?: string
  kind?: 'code' | 'voice_code' | 'template'
}

export interface CodeFilter extends Omit<Window, 'limit'> {
  msg_id?: string
  kind?: 'code' | 'voice_code'
}

export interface PushFilter extends Window {
  registration_id?: string
  /** The alias the device had when the push reached it. */
  alias?: string
  msg_id?: string
}

/** The JSMS callbacks (jsms-api.md §6), and those a push's `callback` asks for. */
export type CallbackType =
  | 'SMS_REPORT'
  | 'SMS_REPLY'
  | 'SMS_TEMPLATE'
  | 'SMS_SIGN'
  | 'JPUSH_DELIVERED'
  | 'JPUSH_CLICKED'
  | 'JPUSH_NOT_DELIVERED'
  | 'JPUSH_PUSH_SUCCEEDED'

export interface CallbackFilter extends Window {
  kind?: CallbackType
  state?: 'pending' | 'sending' | 'delivered' | 'failed'
  mobile?: string
  /** An SMS's or a push's. */
  msg_id?: string
  /** A push callback's device. */
  registration_id?: string
}

export interface ReportFilter extends Window {
  mobile?: string
  msg_id?: string
}

export interface ReplyFilter extends Window {
  mobile?: string
}

export interface RequestFilter extends Window {
  method?: string
  /** Paths starting with this (`/v1/messages`). */
  path?: string
  status?: number
  /** The refusal's code (the vendor's, or the control plane's 900xx). */
  code?: number
  /** Requests that created this id, or named it in their path. */
  msg_id?: string
  /** Requests that got the production advisor's warning of this rule; `any`: of any rule. */
  warning?: string
}

/**
 * One answer of a list: its items newest first, and `next_after`, the largest seq it covers: ask
 * again with `after: next_after` for what is newer.
 */
export type Page<K extends string, T> = { [key in K]: T[] } & { next_after: number }

/** GET /_sandbox/callbacks also says where callbacks go now. */
export type CallbackPage = Page<'callbacks', Callback> & { callback_url: string | null }
