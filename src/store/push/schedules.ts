import type { Db } from '../engine/db.js'
import type { DueIndex } from '../engine/due-index.js'
import { prepareWrite } from '../engine/statements.js'

/** A JPush schedule task (jpush-api.md §8), its sections as accepted. */
export interface PushSchedule {
  scheduleId: string
  appKey: string
  cid: string | null
  name: string
  enabled: boolean
  kind: 'single' | 'periodical'
  trigger: Record<string, unknown>
  push: Record<string, unknown>
  /** After this (app time) the task is over: a single task's time, a periodical one's end. */
  endsAt: number
  /** The occurrence it fires next; null when none will (disabled, over, deleted). */
  nextDueAt: number | null
  deletedAt: number | null
  createdAt: number
  updatedAt: number
}

export interface ScheduleRow {
  schedule_id: string
  app_key: string
  cid: string | null
  name: string
  enabled: number
  kind: string
  trigger_json: string
  push_json: string
  ends_at: number
  next_due_at: number | null
  deleted_at: number | null
  created_at: number
  updated_at: number
}

export const toSchedule = (r: ScheduleRow): PushSchedule => ({
  scheduleId: r.schedule_id,
  appKey: r.app_key,
  cid: r.cid,
  name: r.name,
  enabled: r.enabled === 1,
  kind: r.kind as PushSchedule['kind'],
  trigger: JSON.parse(r.trigger_json),
  push: JSON.parse(r.push_json),
  endsAt: r.ends_at,
  nextDueAt: r.next_due_at,
  deletedAt: r.deleted_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

type Columns = Omit<PushSchedule, 'deletedAt'>

/** The statements that set an occurrence to fire tell the due index (statements.ts). */
export const noteNextDue = (dueIndex: DueIndex) => (p: { appKey: string; nextDueAt: number | null }) => {
  if (p.nextDueAt !== null) dueIndex.note('push schedules', p.appKey, p.nextDueAt)
}

const params = (s: Columns) => ({
  ...s,
  enabled: s.enabled ? 1 : 0,
  trigger: JSON.stringify(s.trigger),
  push: JSON.stringify(s.push),
})
type Params = ReturnType<typeof params>

// Not deleted and not over: what the vendor lists and counts against the 100 (docs2019).
const ACTIVE = 'app_key = @appKey AND deleted_at IS NULL AND ends_at > @now'

export function createPushScheduleStore(db: Db, dueIndex: DueIndex) {
  const due = noteNextDue(dueIndex)
  const insert = prepareWrite<Params>(
    db,
    `INSERT INTO push_schedules (schedule_id, app_key, cid, name, enabled, kind, trigger_json, push_json,
       ends_at, next_due_at, created_at, updated_at)
     VALUES (@scheduleId, @appKey, @cid, @name, @enabled, @kind, @trigger, @push, @endsAt, @nextDueAt,
       @createdAt, @updatedAt)`,
    due,
  )
  const update = prepareWrite<Params>(
    db,
    `UPDATE push_schedules SET name = @name, enabled = @enabled, trigger_json = @trigger, push_json = @push,
       ends_at = @endsAt, next_due_at = @nextDueAt, updated_at = @updatedAt
     WHERE schedule_id = @scheduleId AND app_key = @appKey AND deleted_at IS NULL`,
    due,
  )
  const remove = db.prepare<{ appKey: string; scheduleId: string; now: number }>(
    `UPDATE push_schedules SET deleted_at = @now, updated_at = @now, next_due_at = NULL
     WHERE app_key = @appKey AND schedule_id = @scheduleId AND deleted_at IS NULL`,
  )
  const get = db.prepare<[string, string], ScheduleRow>(
    'SELECT * FROM push_schedules WHERE app_key = ? AND schedule_id = ?',
  )
  const byCid = db.prepare<{ appKey: string; cid: string; since: number }, ScheduleRow>(
    `SELECT * FROM push_schedules WHERE app_key = @appKey AND cid = @cid AND created_at >= @since
     ORDER BY created_at LIMIT 1`,
  )
  const count = db.prepare<{ appKey: string; now: number }, { n: number }>(
    `SELECT count(*) AS n FROM push_schedules WHERE ${ACTIVE}`,
  )
  const page = db.prepare<{ appKey: string; now: number; limit: number; offset: number }, ScheduleRow>(
    `SELECT * FROM push_schedules WHERE ${ACTIVE} ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
  )

  return {
    insert(s: Columns): void {
      insert.run(params(s))
    },
    /** Replaces a task's sections and times; false when it is deleted. */
    update(s: Columns): boolean {
      return update.run(params(s)).changes === 1
    },
    /** Deleted tasks are kept (inspection shows them) but never fire again. */
    remove(appKey: string, scheduleId: string, now: number): boolean {
      return remove.run({ appKey, scheduleId, now }).changes === 1
    },
    get(appKey: string, scheduleId: string): PushSchedule | undefined {
      const row = get.get(appKey, scheduleId)
      return row && toSchedule(row)
    },
    byCid(appKey: string, cid: string, since: number): PushSchedule | undefined {
      const row = byCid.get({ appKey, cid, since })
      return row && toSchedule(row)
    },
    countActive(appKey: string, now: number): number {
      return count.get({ appKey, now })?.n ?? 0
    },
    /** One page of the tasks not over, oldest first. */
    active(appKey: string, now: number, limit: number, offset: number): PushSchedule[] {
      return page.all({ appKey, now, limit, offset }).map(toSchedule)
    },
  }
}

export type { Firing } from './schedule-firings.js'
