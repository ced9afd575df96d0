import type { Statement } from 'better-sqlite3'
import { dueQuery, type Engine } from '../../store/engine/index.js'
import type { ListWindow } from '../../store/engine/lister.js'

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

interface ScheduleRow {
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

const toSchedule = (r: ScheduleRow): PushSchedule => ({
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

/** One occurrence of a JPush schedule fired: the push made then, or why none was. */
export interface Firing {
  scheduleId: string
  dueAt: number
  msgId: string
  errorCode: number
  errorMessage: string
}

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

type Columns = Omit<PushSchedule, 'deletedAt'>

/** Tasks with an occurrence to fire, due at next_due_at (partial index of migration 008). */
export const PUSH_SCHEDULES_DUE = dueQuery('x.next_due_at', 'push_schedules x', 'x.next_due_at IS NOT NULL')

const params = (s: Columns) => ({
  ...s,
  enabled: s.enabled ? 1 : 0,
  trigger: JSON.stringify(s.trigger),
  push: JSON.stringify(s.push),
})
type Params = ReturnType<typeof params>

// Not deleted and not over: what the vendor lists and counts against the 100 (docs2019).
const ACTIVE = 'app_key = @appKey AND deleted_at IS NULL AND ends_at > @now'

/**
 * JPush schedule tasks: the vendor's CRUD (a task's sections and times), the firing of each
 * occurrence (what is due, the claim that lets one caller fire it, the record of what it made), and
 * the control plane's list of every task. A statement that sets an occurrence to fire declares it (engine/statements.ts).
 */
export function createPushScheduleStore({ db, writes }: Engine) {
  // An occurrence to fire is due work at next_due_at (null: none left).
  const nextDue = { due: { query: PUSH_SCHEDULES_DUE, at: (s: Params) => s.nextDueAt } }
  const insert = writes<Params>(
    `INSERT INTO push_schedules (schedule_id, app_key, cid, name, enabled, kind, trigger_json, push_json,
       ends_at, next_due_at, created_at, updated_at)
     VALUES (@scheduleId, @appKey, @cid, @name, @enabled, @kind, @trigger, @push, @endsAt, @nextDueAt,
       @createdAt, @updatedAt)`,
    nextDue,
  )
  const update = writes<Params>(
    `UPDATE push_schedules SET name = @name, enabled = @enabled, trigger_json = @trigger, push_json = @push,
       ends_at = @endsAt, next_due_at = @nextDueAt, updated_at = @updatedAt
     WHERE schedule_id = @scheduleId AND app_key = @appKey AND deleted_at IS NULL`,
    nextDue,
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
  // The claim: only the caller that moves next_due_at off this occurrence may fire it.
  const claim = db.prepare<{ appKey: string; scheduleId: string; dueAt: number; nextDueAt: number | null }>(
    `UPDATE push_schedules SET next_due_at = @nextDueAt
     WHERE schedule_id = @scheduleId AND app_key = @appKey AND next_due_at = @dueAt`,
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
  const firings = db.prepare<[string], Firing>(
    `SELECT schedule_id AS scheduleId, due_at AS dueAt, msg_id AS msgId, error_code AS errorCode,
       error_message AS errorMessage
     FROM push_schedule_firings WHERE schedule_id = ? ORDER BY due_at`,
  )
  // The control plane's list: one statement per shape of filter, prepared once.
  const listed = new Map<string, Statement<[Record<string, unknown>], ScheduleRow>>()

  return {
    insert(s: Columns): void {
      insert.run(params(s))
    },
    /** Replaces a task's sections and times; false when it is deleted. */
    update(s: Columns): boolean {
      if (update.run(params(s)).changes !== 1) return false
      return true
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
    /**
     * Moves a task off the occurrence `dueAt` to `nextDueAt`; false when another caller did. The
     * next occurrence is later: the due bound, no later than the one claimed, stays a lower bound.
     */
    claim(appKey: string, scheduleId: string, dueAt: number, nextDueAt: number | null): boolean {
      return claim.run({ appKey, scheduleId, dueAt, nextDueAt }).changes === 1
    },
    recordFiring(f: Firing): void {
      record.run(f)
    },
    /** A task's firings, in time order. */
    firings(scheduleId: string): Firing[] {
      return firings.all(scheduleId)
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
    /**
     * Every task of an app, deleted and over ones too, newest first, filtered in SQL: only the
     * conditions of the filters given (so SQLite picks its index).
     */
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
      let statement = listed.get(sql)
      if (!statement) {
        statement = db.prepare<[Record<string, unknown>], ScheduleRow>(sql)
        listed.set(sql, statement)
      }
      return statement.all(params).map(toSchedule)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Push tasks of the Schedule API, their occurrences' firings (store.pushSchedules). */
    pushSchedules: ReturnType<typeof createPushScheduleStore>
  }
}
