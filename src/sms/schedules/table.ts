import type { Statement } from 'better-sqlite3'
import type { Db } from '../../store/engine/db.js'
import { dueQuery, type Engine } from '../../store/engine/index.js'
import type { ListWindow } from '../../store/engine/lister.js'

// Scheduled messages (jsms-api.md §2.6): a task, and its recipients in the order given, each with
// its msg_id and any refusal.

export type ScheduleStatus = 'pending' | 'sent' | 'deleted'

export interface Schedule {
  scheduleId: string
  appKey: string
  batch: boolean
  tempId: number
  signId: number | null
  tag: string | null
  sendAt: number
  status: ScheduleStatus
  createdAt: number
  updatedAt: number
  sentAt: number | null
}

export type NewSchedule = Omit<Schedule, 'status' | 'createdAt' | 'updatedAt' | 'sentAt'>

interface Row {
  schedule_id: string
  app_key: string
  batch: number
  temp_id: number
  sign_id: number | null
  tag: string | null
  send_at: number
  status: string
  created_at: number
  updated_at: number
  sent_at: number | null
}

const toSchedule = (r: Row): Schedule => ({
  scheduleId: r.schedule_id,
  appKey: r.app_key,
  batch: r.batch === 1,
  tempId: r.temp_id,
  signId: r.sign_id,
  tag: r.tag,
  sendAt: r.send_at,
  status: r.status as ScheduleStatus,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sentAt: r.sent_at,
})

export interface ScheduleRecipient {
  msgId: string
  mobile: string
  tempPara: Record<string, string>
  errorCode: number | null
  errorMessage: string | null
}

export type NewRecipient = Pick<ScheduleRecipient, 'msgId' | 'mobile' | 'tempPara'>

interface RecipientRow {
  msg_id: string
  mobile: string
  temp_para: string
  error_code: number | null
  error_message: string | null
}

const toRecipient = (r: RecipientRow): ScheduleRecipient => ({
  msgId: r.msg_id,
  mobile: r.mobile,
  tempPara: JSON.parse(r.temp_para),
  errorCode: r.error_code,
  errorMessage: r.error_message,
})

// `batch` is bound as 0/1 by the insert; the update leaves it.
type Params = Omit<NewSchedule, 'batch'> & { batch: number | boolean; now: number }

/** Pending tasks, due at send_at. */
export const SCHEDULES_DUE = dueQuery('x.send_at', 'schedules x', "x.status = 'pending'")

/** What GET /_sandbox/sms/schedules filters on; tasks have no seq, so no `after`. */
export type SmsScheduleFilter = Omit<ListWindow, 'after'> & {
  scheduleId?: string | undefined
  /** pending, sent or deleted. */
  state?: string | undefined
  /** One of its recipients. */
  mobile?: string | undefined
  msgId?: string | undefined
}

type Named = Exclude<keyof SmsScheduleFilter, 'limit'>
const CONDITIONS: Record<Named, string> = {
  scheduleId: 'schedule_id = @scheduleId',
  state: 'status = @state',
  mobile: `EXISTS (SELECT 1 FROM schedule_recipients r
    WHERE r.schedule_id = schedules.schedule_id AND r.mobile = @mobile)`,
  msgId: `EXISTS (SELECT 1 FROM schedule_recipients r
    WHERE r.schedule_id = schedules.schedule_id AND r.msg_id = @msgId)`,
  since: 'created_at >= @since',
  until: 'created_at < @until',
}

export function createScheduleStore({ db, writes }: Engine) {
  const get = db.prepare<[string, string], Row>(
    'SELECT * FROM schedules WHERE app_key = ? AND schedule_id = ?',
  )
  // A pending task is due work at its send_at.
  const dueAt = { query: SCHEDULES_DUE, at: (s: Params) => s.sendAt }
  const insert = writes<Params>(
    `INSERT INTO schedules (schedule_id, app_key, batch, temp_id, sign_id, tag, send_at, status, created_at, updated_at)
     VALUES (@scheduleId, @appKey, @batch, @tempId, @signId, @tag, @sendAt, 'pending', @now, @now)`,
    { due: dueAt },
  )
  const update = writes<Params>(
    `UPDATE schedules SET temp_id = @tempId, sign_id = @signId, tag = @tag, send_at = @sendAt, updated_at = @now
     WHERE schedule_id = @scheduleId AND status = 'pending'`,
    { due: dueAt },
  )
  const setDeleted = db.prepare(
    `UPDATE schedules SET status = 'deleted', updated_at = ? WHERE schedule_id = ? AND status = 'pending'`,
  )
  // The claim: only the one caller that moves the row out of 'pending' may send it.
  const claim = db.prepare<{ scheduleId: string; now: number }, Row>(
    `UPDATE schedules SET status = 'sent', sent_at = @now, updated_at = @now
     WHERE schedule_id = @scheduleId AND status = 'pending' AND send_at <= @now RETURNING *`,
  )
  const abandon = db.prepare(
    `UPDATE schedules SET status = 'sent', sent_at = ?, updated_at = ? WHERE schedule_id = ? AND status = 'pending'`,
  )
  // Due on its own app's clock: send_at <= process now + that app's offset.
  const due = db.prepare<{ now: number; limit: number }, { schedule_id: string; app_key: string }>(
    `SELECT s.schedule_id, s.app_key FROM schedules s JOIN apps a ON a.app_key = s.app_key
     WHERE s.status = 'pending' AND s.send_at <= @now + a.clock_offset_ms
     ORDER BY s.send_at - a.clock_offset_ms, s.created_at LIMIT @limit`,
  )
  const recipients = createScheduleRecipients(db)
  // The ids GET /_sandbox/sms/schedules lists, each task then read by `get`: one statement per
  // shape of filter, prepared once: only the conditions asked for. Read only, at most `limit`.
  const listed = new Map<string, Statement<[Record<string, unknown>], { id: string }>>()

  return {
    get(appKey: string, scheduleId: string): Schedule | undefined {
      const row = get.get(appKey, scheduleId)
      return row && toSchedule(row)
    },
    recipients(scheduleId: string): ScheduleRecipient[] {
      return recipients.list(scheduleId)
    },
    /** Whether the msg_id is a recipient's of one of the app's tasks not sent yet. */
    isPendingRecipient(appKey: string, msgId: string): boolean {
      return recipients.isPending(appKey, msgId)
    },
    insert(s: NewSchedule, list: NewRecipient[], now: number): void {
      insert.run({ ...s, batch: s.batch ? 1 : 0, now })
      recipients.put(s.scheduleId, list)
    },
    /** Replaces a pending task's content; false when it is no longer pending. */
    replace(s: NewSchedule, list: NewRecipient[], now: number): boolean {
      if (update.run({ ...s, now }).changes !== 1) return false
      recipients.put(s.scheduleId, list)
      return true
    },
    markDeleted(scheduleId: string, now: number): boolean {
      return setDeleted.run(now, scheduleId).changes === 1
    },
    claim(scheduleId: string, now: number): Schedule | undefined {
      const row = claim.get({ scheduleId, now })
      return row && toSchedule(row)
    },
    recordFailure(scheduleId: string, msgId: string, code: number, message: string): void {
      recipients.recordFailure(scheduleId, msgId, code, message)
    },
    /** A task that could not be sent because of a fault of the sandbox: never retried in a loop. */
    abandon(scheduleId: string, now: number): void {
      if (abandon.run(now, now, scheduleId).changes === 1)
        recipients.failRemaining(scheduleId, 50019, 'server error')
    },
    due(now: number, limit: number): Array<{ scheduleId: string; appKey: string }> {
      return due.all({ now, limit }).map(r => ({ scheduleId: r.schedule_id, appKey: r.app_key }))
    },
    /** The app's task ids, newest first; rowid breaks ties between tasks created in the same millisecond. */
    ids(appKey: string, filter: SmsScheduleFilter): string[] {
      const conditions = ['app_key = @appKey']
      const params: Record<string, unknown> = { appKey, limit: filter.limit }
      for (const name of Object.keys(CONDITIONS) as Named[]) {
        if (filter[name] === undefined) continue
        conditions.push(CONDITIONS[name])
        params[name] = filter[name]
      }
      const sql = `SELECT schedule_id AS id FROM schedules WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, rowid DESC LIMIT @limit`
      let statement = listed.get(sql)
      if (!statement) {
        statement = db.prepare<[Record<string, unknown>], { id: string }>(sql)
        listed.set(sql, statement)
      }
      return statement.all(params).map(r => r.id)
    },
  }
}

/** The recipients of a scheduled task, in the order given, each with its msg_id and any refusal. */
function createScheduleRecipients(db: Db) {
  const list = db.prepare<[string], RecipientRow>(
    'SELECT * FROM schedule_recipients WHERE schedule_id = ? ORDER BY position',
  )
  const clear = db.prepare('DELETE FROM schedule_recipients WHERE schedule_id = ?')
  const insert = db.prepare(
    `INSERT INTO schedule_recipients (schedule_id, position, msg_id, mobile, temp_para)
     VALUES (@scheduleId, @position, @msgId, @mobile, @tempPara)`,
  )
  const setError = db.prepare(
    `UPDATE schedule_recipients SET error_code = @code, error_message = @message
     WHERE schedule_id = @scheduleId AND msg_id = @msgId`,
  )
  const failRemaining = db.prepare(
    `UPDATE schedule_recipients SET error_code = @code, error_message = @message
     WHERE schedule_id = @scheduleId AND error_code IS NULL`,
  )
  // Asked only when a msg_id has no report (POST /_sandbox/sms/reports): no index on msg_id.
  const pending = db.prepare<[string, string], { n: number }>(
    `SELECT 1 AS n FROM schedule_recipients r JOIN schedules s ON s.schedule_id = r.schedule_id
     WHERE r.msg_id = ? AND s.app_key = ? AND s.status = 'pending' LIMIT 1`,
  )
  return {
    /** Whether the msg_id belongs to a recipient of one of the app's tasks not sent yet. */
    isPending(appKey: string, msgId: string): boolean {
      return pending.get(msgId, appKey) !== undefined
    },
    list(scheduleId: string): ScheduleRecipient[] {
      return list.all(scheduleId).map(toRecipient)
    },
    /** Replaces the whole list. */
    put(scheduleId: string, recipients: NewRecipient[]): void {
      clear.run(scheduleId)
      recipients.forEach((r, position) => {
        insert.run({
          scheduleId,
          position,
          msgId: r.msgId,
          mobile: r.mobile,
          tempPara: JSON.stringify(r.tempPara),
        })
      })
    },
    recordFailure(scheduleId: string, msgId: string, code: number, message: string): void {
      setError.run({ scheduleId, msgId, code, message })
    },
    failRemaining(scheduleId: string, code: number, message: string): void {
      failRemaining.run({ scheduleId, code, message })
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** SMS tasks and their recipients (store.schedules). */
    schedules: ReturnType<typeof createScheduleStore>
  }
}
