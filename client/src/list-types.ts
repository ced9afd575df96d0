import type { Answer, ItemOf } from './wire.js'

// The items of the control plane's lists, read out of the generated description (openapi.ts,
// `npm run client:types`), and what each list takes, written out here (the server's
// list-query.ts). Every item carries a `seq`, increasing per app across every list and the event
// stream.

/** An SMS that went out (GET /_sandbox/sms/messages; the `sms.sent` event). */
export type Message = ItemOf<'getSandboxSmsMessages', 'messages'>

/** A verification code (GET /_sandbox/sms/codes/latest). */
export type Code = Answer<'getSandboxSmsCodesLatest'>

/** A push as a device received it (GET /_sandbox/push/messages; the `push.delivered` event). */
export type Push = ItemOf<'getSandboxPushMessages', 'messages'>

/** One callback to the app's URL with its attempts (GET /_sandbox/callbacks). */
export type Callback = ItemOf<'getSandboxCallbacks', 'callbacks'>

/** A delivery report that arrived (GET /_sandbox/sms/reports; the `sms.report` event). */
export type Report = ItemOf<'getSandboxSmsReports', 'reports'>

/** An uplink reply (GET /_sandbox/sms/replies; the `sms.reply` event). */
export type Reply = ItemOf<'getSandboxSmsReplies', 'replies'>

/**
 * One request in the app's journal (GET /_sandbox/requests; the `request.completed` event): what
 * was asked, what was answered, and why the sandbox refused it.
 */
export type RequestEntry = ItemOf<'getSandboxRequests', 'requests'>

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
