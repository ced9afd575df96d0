import { dueQuery, type Engine } from '../engine/index.js'
import { createLister, type ListWindow } from '../engine/lister.js'

export type CallbackType =
  | 'SMS_REPORT'
  | 'SMS_REPLY'
  | 'SMS_TEMPLATE'
  | 'SMS_SIGN'
  // A push's `callback` (push/send/delivery/callbacks.ts): one type per bit of callback.type.
  | 'JPUSH_DELIVERED'
  | 'JPUSH_CLICKED'
  | 'JPUSH_NOT_DELIVERED'
  | 'JPUSH_PUSH_SUCCEEDED'
export type CallbackState = 'pending' | 'sending' | 'delivered' | 'failed'

/** The JSMS callbacks (jsms-api.md §6), and those a push's `callback` asks for (push-callbacks.ts). */
export const CALLBACK_TYPES = [
  'SMS_REPORT',
  'SMS_REPLY',
  'SMS_TEMPLATE',
  'SMS_SIGN',
  'JPUSH_DELIVERED',
  'JPUSH_CLICKED',
  'JPUSH_NOT_DELIVERED',
  'JPUSH_PUSH_SUCCEEDED',
] as const satisfies readonly CallbackType[]
export const CALLBACK_STATES = [
  'pending',
  'sending',
  'delivered',
  'failed',
] as const satisfies readonly CallbackState[]

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
  seq: number
}

interface AttemptRow {
  attempt: number
  url: string
  at: number
  status_code: number | null
  error: string | null
}

/**
 * A row's data as an object; undefined when it does not read as one (a database edited by hand:
 * an import refuses such a row). The courier fails that callback alone (callbacks/courier.ts).
 */
function dataOf(text: string): Record<string, unknown> | undefined {
  try {
    const data: unknown = JSON.parse(text)
    if (typeof data === 'object' && data !== null && !Array.isArray(data))
      return data as Record<string, unknown>
  } catch {}
  return undefined
}

const toCallback = (r: Row): Callback => ({
  id: r.id,
  appKey: r.app_key,
  type: r.type as CallbackType,
  data: dataOf(r.data) ?? {},
  url: r.url,
  state: r.state as CallbackState,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
  seq: r.seq,
})

const toAttempt = (r: AttemptRow): CallbackAttempt => ({
  attempt: r.attempt,
  url: r.url,
  at: r.at,
  statusCode: r.status_code,
  error: r.error,
})

/** Callbacks waiting for their next attempt, due at next_attempt_at. */
export const CALLBACKS_DUE = dueQuery('x.next_attempt_at', 'callbacks x', "x.state = 'pending'")

/** The callback outbox and the log of every delivery attempt. */
export function createCallbackStore({ db, writes, ids }: Engine) {
  // Due work at its first attempt; its seq (the callback's in the list) taken by the engine.
  const insert = writes<{
    id: number
    appKey: string
    type: string
    data: string
    url: string | null
    at: number
  }>(
    `INSERT INTO callbacks (id, app_key, type, data, url, state, next_attempt_at, created_at, seq)
     VALUES (@id, @appKey, @type, @data, @url, 'pending', @at, @at, @seq)`,
    { seq: 'callbacks', due: { query: CALLBACKS_DUE, at: c => c.at } },
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
  // Only the claimed row: an app reset while the attempt was on the wire has none left (and its id
  // may be another's by now). Its new seq (its callback.attempt event's) taken by the engine; a retry
  // is due work from its next attempt.
  const settle = writes<{ id: number; appKey: string; state: string; nextAttemptAt: number | null }>(
    `UPDATE callbacks SET state = @state, next_attempt_at = @nextAttemptAt, seq = @seq
     WHERE id = @id AND app_key = @appKey AND state = 'sending'`,
    { seq: 'callbacks', due: { query: CALLBACKS_DUE, at: c => c.nextAttemptAt } },
  )
  // Redone from its creation: earlier than anything the due index was told, so it asks again.
  const reset = writes<[]>(
    `UPDATE callbacks SET state = 'pending', attempts = attempts - 1, next_attempt_at = created_at
     WHERE state = 'sending'`,
    { remaps: true },
  )
  const list = createLister<'kind' | 'state' | 'mobile' | 'msgId' | 'rid', Row>(db, {
    columns: '*',
    from: 'callbacks',
    appKey: 'app_key',
    seq: 'seq',
    time: 'created_at',
    // The phone and msgId of SMS_REPORT and SMS_REPLY, as posted (jsms-api.md §6); the msg_id
    // and the devices' rows of a push's callbacks (push/send/delivery/callbacks.ts).
    filters: {
      kind: 'type = @kind',
      state: 'state = @state',
      mobile: "json_extract(data, '$.phone') = @mobile",
      msgId: "coalesce(json_extract(data, '$.msgId'), json_extract(data, '$.msg_id')) = @msgId",
      rid: `EXISTS (SELECT 1 FROM json_each(data, '$.rows') r
        WHERE json_extract(r.value, '$.registration_id') = @rid)`,
    },
  })
  const get = db.prepare<[string, number], Row>('SELECT * FROM callbacks WHERE app_key = ? AND id = ?')
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
      const id = ids.next('callback_id')
      insert.run({ id, appKey, type, data: JSON.stringify(data), url, at })
      return id
    },
    /**
     * Claims the due callbacks of every app; those whose data does not read as an object come
     * back apart (`unreadable`), claimed too, for the caller to fail one by one: a row nobody can
     * send never holds back the others' (a claim that threw would roll back every app's).
     */
    claimDue(now: number, limit: number): { claimed: Callback[]; unreadable: Callback[] } {
      const claimed: Callback[] = []
      const unreadable: Callback[] = []
      for (const r of claim.all({ now, limit })) (dataOf(r.data) ? claimed : unreadable).push(toCallback(r))
      return { claimed, unreadable }
    },
    /**
     * Logs one attempt; `next` is when to retry, or undefined to stop (delivered or given up).
     * Returns the callback's new seq (its callback.attempt event's); nothing when the callback is
     * gone (its app was reset or removed meanwhile).
     */
    recordAttempt(
      c: Callback,
      a: CallbackAttempt,
      outcome: { delivered: boolean; next?: number | undefined },
    ): number | undefined {
      const state = outcome.delivered ? 'delivered' : outcome.next === undefined ? 'failed' : 'pending'
      const settled = settle.run({ id: c.id, appKey: c.appKey, state, nextAttemptAt: outcome.next ?? null })
      if (settled.changes !== 1) return undefined
      insertAttempt.run({ id: c.id, ...a })
      return settled.seq
    },
    /** A process killed while a request was on the wire: that attempt never finished, so it is redone. */
    resetInterrupted(): number {
      return reset.run([]).changes
    },
    /** Newest change first, each with its attempts. */
    list(appKey: string, filter: CallbackFilter): LoggedCallback[] {
      return list(appKey, filter).map(r => ({ ...toCallback(r), log: attempts.all(r.id).map(toAttempt) }))
    },
    get(appKey: string, id: number): LoggedCallback | undefined {
      const row = get.get(appKey, id)
      return row && { ...toCallback(row), log: attempts.all(row.id).map(toAttempt) }
    },
  }
}
