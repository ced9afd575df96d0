import type { Statement } from 'better-sqlite3'
import type { Db } from '../engine/db.js'
import type { ListWindow } from '../engine/lister.js'
import { type PushSchedule, type ScheduleRow, toSchedule } from './schedules.js'

export const SCHEDULE_STATES = ['active', 'disabled', 'expired', 'deleted'] as const
export type ScheduleState = (typeof SCHEDULE_STATES)[number]

/** A task's state at app time @now: deleted; expired (its time or end has passed); disabled; active. */
const STATE = `CASE WHEN deleted_at IS NOT NULL THEN 'deleted' WHEN ends_at <= @now THEN 'expired'
  WHEN enabled = 1 THEN 'active' ELSE 'disabled' END`

/** What GET /_sandbox/push/schedules filters on; tasks have no seq, so no `after`. */
export type ScheduleFilter = Omit<ListWindow, 'after'> & {
  scheduleId?: string | undefined
  kind?: string | undefined
  state?: string | undefined
  /** A push one of its occurrences made. */
  msgId?: string | undefined
  /** The app's time, for `state`. */
  now: number
}

type Named = Exclude<keyof ScheduleFilter, 'limit' | 'now'>
const CONDITIONS: Record<Named, string> = {
  scheduleId: 'schedule_id = @scheduleId',
  kind: 'kind = @kind',
  state: `${STATE} = @state`,
  msgId: `EXISTS (SELECT 1 FROM push_schedule_firings f
    WHERE f.schedule_id = push_schedules.schedule_id AND f.msg_id = @msgId)`,
  since: 'created_at >= @since',
  until: 'created_at < @until',
}

/**
 * Every task of an app, deleted and over ones too, newest first, filtered in SQL: only the
 * conditions of the filters given (so SQLite picks its index), each shape prepared once.
 */
export function createPushScheduleList(db: Db) {
  const prepared = new Map<string, Statement<[Record<string, unknown>], ScheduleRow>>()
  return {
    list(appKey: string, filter: ScheduleFilter): PushSchedule[] {
      const conditions = ['app_key = @appKey']
      const params: Record<string, unknown> = { appKey, limit: filter.limit }
      for (const name of Object.keys(CONDITIONS) as Named[]) {
        if (filter[name] === undefined) continue
        conditions.push(CONDITIONS[name])
        params[name] = filter[name]
        if (name === 'state') params.now = filter.now
      }
      const sql = `SELECT * FROM push_schedules WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, rowid DESC LIMIT @limit`
      let statement = prepared.get(sql)
      if (!statement) {
        statement = db.prepare<[Record<string, unknown>], ScheduleRow>(sql)
        prepared.set(sql, statement)
      }
      return statement.all(params).map(toSchedule)
    },
  }
}
