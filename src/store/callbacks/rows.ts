import type { ListWindow } from '../engine/lister.js'

// The callback outbox's rows (callbacks.ts) as the rest of the sandbox sees them.

export type CallbackType =
  | 'SMS_REPORT'
  | 'SMS_REPLY'
  | 'SMS_TEMPLATE'
  | 'SMS_SIGN'
  // A push's `callback` (push/delivery/callbacks.ts): one type per bit of callback.type.
  | 'JPUSH_DELIVERED'
  | 'JPUSH_CLICKED'
  | 'JPUSH_NOT_DELIVERED'
  | 'JPUSH_PUSH_SUCCEEDED'
export type CallbackState = 'pending' | 'sending' | 'delivered' | 'failed'

export interface Callback {
  id: number
  appKey: string
  type: CallbackType
  data: Record<string, unknown>
  /** Its own URL (a push's callback.url); null: the app's callback_url. */
  url: string | null
  state: CallbackState
  attempts: number
  nextAttemptAt: number | null
  createdAt: number
  /** Its latest change: queued, then each attempt (the callback.attempt event). */
  seq: number
}

/** A callback with the log of its attempts, as the control plane shows it. */
export type LoggedCallback = Callback & { log: CallbackAttempt[] }

export type CallbackFilter = ListWindow & {
  kind?: string
  state?: string
  mobile?: string
  msgId?: string
  rid?: string
}

export interface CallbackAttempt {
  attempt: number
  url: string
  at: number
  statusCode: number | null
  error: string | null
}

export interface Row {
  id: number
  app_key: string
  type: string
  data: string
  url: string | null
  state: string
  attempts: number
  next_attempt_at: number | null
  created_at: number
  seq: number
}

export interface AttemptRow {
  attempt: number
  url: string
  at: number
  status_code: number | null
  error: string | null
}

export const toCallback = (r: Row): Callback => ({
  id: r.id,
  appKey: r.app_key,
  type: r.type as CallbackType,
  data: JSON.parse(r.data),
  url: r.url,
  state: r.state as CallbackState,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  seq: r.seq,
})

export const toAttempt = (r: AttemptRow): CallbackAttempt => ({
  attempt: r.attempt,
  url: r.url,
  at: r.at,
  statusCode: r.status_code,
  error: r.error,
})
