import type { Db } from '../engine/db.js'

export interface ScheduleRecipient {
  msgId: string
  mobile: string
  tempPara: Record<string, string>
  errorCode: number | null
  errorMessage: string | null
}

export type NewRecipient = Pick<ScheduleRecipient, 'msgId' | 'mobile' | 'tempPara'>

interface Row {
  msg_id: string
  mobile: string
  temp_para: string
  error_code: number | null
  error_message: string | null
}

const toRecipient = (r: Row): ScheduleRecipient => ({
  msgId: r.msg_id,
  mobile: r.mobile,
  tempPara: JSON.parse(r.temp_para),
  errorCode: r.error_code,
  errorMessage: r.error_message,
})

/** The recipients of a scheduled task, in the order given, each with its msg_id and any refusal. */
export function createScheduleRecipients(db: Db) {
  const list = db.prepare<[string], Row>(
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
