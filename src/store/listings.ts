import type { Db } from './db.js'

/**
 * The ids of an app's templates, signatures and SMS tasks, for the control plane's lists (GET
 * /_sandbox/sms/templates, /signs, /schedules): each row is then read through its own module, whose
 * cache the sends share. Read only; a few rows per app, or at most `limit` tasks.
 */
export function createListings(db: Db) {
  const templates = db.prepare<[string], { id: number }>(
    'SELECT temp_id AS id FROM templates WHERE app_key = ? ORDER BY temp_id',
  )
  const signs = db.prepare<[string], { id: number }>(
    'SELECT sign_id AS id FROM signs WHERE app_key = ? ORDER BY sign_id',
  )
  // Newest first; rowid breaks ties between tasks created in the same millisecond.
  const schedules = db.prepare<[string, number], { id: string }>(
    'SELECT schedule_id AS id FROM schedules WHERE app_key = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  )
  const ids = <T>(rows: Array<{ id: T }>) => rows.map(r => r.id)
  return {
    templateIds: (appKey: string): number[] => ids(templates.all(appKey)),
    signIds: (appKey: string): number[] => ids(signs.all(appKey)),
    scheduleIds: (appKey: string, limit: number): string[] => ids(schedules.all(appKey, limit)),
  }
}
