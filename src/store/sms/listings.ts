import type { Statement } from 'better-sqlite3'
import type { Engine } from '../engine/index.js'
import type { ListWindow } from '../engine/lister.js'

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

/**
 * The ids of an app's templates, signatures and SMS tasks, for the control plane's lists (GET
 * /_sandbox/sms/templates, /signs, /schedules): each row is then read through its own module, whose
 * cache the sends share. Read only; a few rows per app, or at most `limit` tasks.
 */
export function createListings({ db }: Engine) {
  const templates = db.prepare<[string], { id: number }>(
    'SELECT temp_id AS id FROM templates WHERE app_key = ? ORDER BY temp_id',
  )
  const signs = db.prepare<[string], { id: number }>(
    'SELECT sign_id AS id FROM signs WHERE app_key = ? ORDER BY sign_id',
  )
  // One statement per shape of filter, prepared once: only the conditions asked for.
  const schedules = new Map<string, Statement<[Record<string, unknown>], { id: string }>>()
  const ids = <T>(rows: Array<{ id: T }>) => rows.map(r => r.id)
  return {
    templateIds: (appKey: string): number[] => ids(templates.all(appKey)),
    signIds: (appKey: string): number[] => ids(signs.all(appKey)),
    /** Newest first; rowid breaks ties between tasks created in the same millisecond. */
    scheduleIds(appKey: string, filter: SmsScheduleFilter): string[] {
      const conditions = ['app_key = @appKey']
      const params: Record<string, unknown> = { appKey, limit: filter.limit }
      for (const name of Object.keys(CONDITIONS) as Named[]) {
        if (filter[name] === undefined) continue
        conditions.push(CONDITIONS[name])
        params[name] = filter[name]
      }
      const sql = `SELECT schedule_id AS id FROM schedules WHERE ${conditions.join(' AND ')}
        ORDER BY created_at DESC, rowid DESC LIMIT @limit`
      let statement = schedules.get(sql)
      if (!statement) {
        statement = db.prepare<[Record<string, unknown>], { id: string }>(sql)
        schedules.set(sql, statement)
      }
      return ids(statement.all(params))
    },
  }
}
