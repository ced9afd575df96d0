import type { Db } from '../engine/db.js'
import type { DueIndex } from '../engine/due-index.js'
import { prepareWrite } from '../engine/statements.js'
import { noteNextDue } from './schedules.js'

/** One occurrence of a JPush schedule fired: the push made then, or why none was. */
export interface Firing {
  scheduleId: string
  dueAt: number
  msgId: string
  errorCode: number
  errorMessage: string
}

/** The firing side of JPush schedules: what is due, the claim of an occurrence, its record. */
export function createPushScheduleFirings(db: Db, dueIndex: DueIndex) {
  // The claim: only the caller that moves next_due_at off this occurrence may fire it.
  const claim = prepareWrite<{ scheduleId: string; appKey: string; dueAt: number; nextDueAt: number | null }>(
    db,
    `UPDATE push_schedules SET next_due_at = @nextDueAt
     WHERE schedule_id = @scheduleId AND next_due_at = @dueAt`,
    noteNextDue(dueIndex),
  )
  // Due on its own app's clock: next_due_at <= process now + that app's offset; earliest first.
  const due = db.prepare<
    { now: number; limit: number },
    { schedule_id: string; app_key: string; next_due_at: number; clock_offset_ms: number }
  >(
    `SELECT s.schedule_id, s.app_key, s.next_due_at, a.clock_offset_ms
     FROM push_schedules s JOIN apps a ON a.app_key = s.app_key
     WHERE s.next_due_at IS NOT NULL AND s.next_due_at <= @now + a.clock_offset_ms
     ORDER BY s.next_due_at - a.clock_offset_ms, s.created_at LIMIT @limit`,
  )
  const record = db.prepare<Firing>(
    `INSERT INTO push_schedule_firings (schedule_id, due_at, msg_id, error_code, error_message)
     VALUES (@scheduleId, @dueAt, @msgId, @errorCode, @errorMessage)`,
  )
  const list = db.prepare<[string], Firing>(
    `SELECT schedule_id AS scheduleId, due_at AS dueAt, msg_id AS msgId, error_code AS errorCode,
       error_message AS errorMessage
     FROM push_schedule_firings WHERE schedule_id = ? ORDER BY due_at`,
  )

  return {
    /** Moves a task off the occurrence `dueAt` to `nextDueAt`; false when another caller did. */
    claim(appKey: string, scheduleId: string, dueAt: number, nextDueAt: number | null): boolean {
      return claim.run({ appKey, scheduleId, dueAt, nextDueAt }).changes === 1
    },
    recordFiring(f: Firing): void {
      record.run(f)
    },
    /** A task's firings, in time order. */
    firings(scheduleId: string): Firing[] {
      return list.all(scheduleId)
    },
    /** Occurrences due at process time `now`, earliest first (process time), with their app's offset. */
    due(now: number, limit: number) {
      return due.all({ now, limit }).map(r => ({
        scheduleId: r.schedule_id,
        appKey: r.app_key,
        dueAt: r.next_due_at,
        offsetMs: r.clock_offset_ms,
      }))
    },
  }
}
