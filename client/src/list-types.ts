import type { Answer, ItemOf, ListQuery } from './wire.js'

export type { Time } from './wire.js'

// The items of the control plane's lists, read out of the generated description (openapi.ts,
// `npm run client:types`), and what each list takes (its query, the server's lists/query.ts), read
// out of it too. Every item carries a `seq`, increasing per app across every list and the event
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

/** What every list takes: a window of seqs and of app-clock time, how many, how long to wait. */
export type Window = Pick<ListQuery<'getSandboxSmsReports'>, 'after' | 'since' | 'until' | 'limit' | 'wait'>

export type MessageFilter = ListQuery<'getSandboxSmsMessages'>

/** The mobile is latestCode's own argument. */
export type CodeFilter = Omit<ListQuery<'getSandboxSmsCodesLatest'>, 'mobile'>

export type PushFilter = ListQuery<'getSandboxPushMessages'>

export type CallbackFilter = ListQuery<'getSandboxCallbacks'>

/** The JSMS callbacks (jsms-api.md §6), and those a push's `callback` asks for. */
export type CallbackType = NonNullable<CallbackFilter['kind']>

export type ReportFilter = ListQuery<'getSandboxSmsReports'>

export type ReplyFilter = ListQuery<'getSandboxSmsReplies'>

export type RequestFilter = ListQuery<'getSandboxRequests'>

/**
 * One answer of a list: its items newest first, and `next_after`, the largest seq it covers: ask
 * again with `after: next_after` for what is newer.
 */
export type Page<K extends string, T> = { [key in K]: T[] } & { next_after: number }

/** GET /_sandbox/callbacks also says where callbacks go now. */
export type CallbackPage = Page<'callbacks', Callback> & { callback_url: string | null }
