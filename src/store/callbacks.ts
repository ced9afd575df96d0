import type { Db } from './db.js'
import type { DueIndex } from './due-index.js'
import { prepareWrite } from './statements.js'

export type CallbackType =
  | 'SMS_REPORT'
  | 'SMS_REPLY'
  | 'SMS_TEMPLATE'
  | 'SMS_SIGN'
  // A push's `callback` (push/push-callbacks.ts): one type per bit of callback.type.
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
}

export interface CallbackAttempt {
  attempt: number
  url: string
  at: number
  statusCode: number | null
  error: string | null
}

interface Row {
  id: number
  app_key: string
  type: string
  data: string
  url: string | null
  state: string
  attempts: number
  next_attempt_at: number | null
  created_at: number
}

interface AttemptRow {
  attempt: number
  url: string
  at: number
  status_code: number | null
  error: string | null
}

const toCallback = (r: Row): Callback => ({
  id: r.id,
  appKey: r.app_key,
  type: r.type as CallbackType,
  data: JSON.parse(r.data),
  url: r.url,
  state: r.state as CallbackState,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
})

const toAttempt = (r: AttemptRow): CallbackAttempt => ({
  attempt: r.attempt,
  url: r.url,
  at: r.at,
  statusCode: r.status_code,
  error: r.error,
})

/** The callback outbox and the log of every delivery attempt. */
export function createCallbackStore(db: Db, due: DueIndex) {
  const insert = prepareWrite<
    { appKey: string; type: string; data: string; url: string | null; at: number },
    { id: number }
  >(
    db,
    `INSERT INTO callbacks (app_key, type, data, url, state, next_attempt_at, created_at)
     VALUES (@appKey, @type, @data, @url, 'pending', @at, @at) RETURNING id`,
    p => due.note('callbacks', p.appKey, p.at),
  )
  // Claiming moves the row to 'sending' and counts the attempt, so no second tick can take it.
  const claim = db.prepare<{ now: number; limit: number }, Row>(
    `UPDATE callbacks SET state = 'sending', attempts = attempts + 1, next_attempt_at = NULL WHERE id IN (
       SELECT c.id FROM callbacks c JOIN apps a ON a.app_key = c.app_key
       WHERE c.state = 'pending' AND c.next_attempt_at <= @now + a.clock_offset_ms
       ORDER BY c.next_attempt_at - a.clock_offset_ms, c.id LIMIT @limit)
     RETURNING *`,
  )
  const insertAttempt = db.prepare(
    `INSERT INTO callback_attempts (callback_id, attempt, url, at, status_code, error)
     VALUES (@id, @attempt, @url, @at, @statusCode, @error)`,
  )
  // A retry is due work from its next attempt. Only the claimed row: an app reset while the attempt
  // was on the wire has none left (and its id may be another's by now).
  const settle = prepareWrite<{ id: number; appKey: string; state: string; nextAttemptAt: number | null }>(
    db,
    `UPDATE callbacks SET state = @state, next_attempt_at = @nextAttemptAt
     WHERE id = @id AND app_key = @appKey AND state = 'sending'`,
    p => {
      if (p.nextAttemptAt !== null) due.note('callbacks', p.appKey, p.nextAttemptAt)
    },
  )
  // A process killed while a request was on the wire: that attempt never finished, so it is redone
  // (from its creation: earlier than anything the due index was told).
  const reset = prepareWrite(
    db,
    `UPDATE callbacks SET state = 'pending', attempts = attempts - 1, next_attempt_at = created_at
     WHERE state = 'sending'`,
    () => due.remap(),
  )
  const list = db.prepare<[string, number], Row>(
    'SELECT * FROM callbacks WHERE app_key = ? ORDER BY id DESC LIMIT ?',
  )
  const attempts = db.prepare<[number], AttemptRow>(
    'SELECT * FROM callback_attempts WHERE callback_id = ? ORDER BY attempt',
  )

  return {
    /** `url`: where this one goes, instead of the app's callback_url (a push's callback.url). */
    enqueue(
      appKey: string,
      type: CallbackType,
      data: Record<string, unknown>,
      at: number,
      url: string | null = null,
    ): number {
      return insert.get({ appKey, type, data: JSON.stringify(data), url, at })!.id
    },
    claimDue(now: number, limit: number): Callback[] {
      return claim.all({ now, limit }).map(toCallback)
    },
    /**
     * Logs one attempt; `next` is when to retry, or undefined to stop (delivered or given up).
     * Nothing when the callback is gone (its app was reset or removed meanwhile).
     */
    recordAttempt(
      c: Callback,
      a: CallbackAttempt,
      outcome: { delivered: boolean; next?: number | undefined },
    ): void {
      const state = outcome.delivered ? 'delivered' : outcome.next === undefined ? 'failed' : 'pending'
      const settled = settle.run({ id: c.id, appKey: c.appKey, state, nextAttemptAt: outcome.next ?? null })
      if (settled.changes === 1) insertAttempt.run({ id: c.id, ...a })
    },
    resetInterrupted(): number {
      return reset.run().changes
    },
    list(appKey: string, limit: number): Array<Callback & { log: CallbackAttempt[] }> {
      return list.all(appKey, limit).map(r => ({ ...toCallback(r), log: attempts.all(r.id).map(toAttempt) }))
    },
  }
}
