import type { Engine } from '../engine/index.js'

/** What the operator's list shows of one app (GET /_sandbox/apps). */
export interface AppActivity {
  appKey: string
  createdAt: number
  clockOffsetMs: number
  /** The process-wide order of its latest activity: larger is more recent. */
  activity: number
  /** Real time of its last journaled request; null: none yet. */
  lastRequestAt: number | null
  requests: number
  refusals: number
  texts: number
  pushes: number
  devices: number
  /** The newest entry of its request journal; null: none kept (none yet, a reset, no journal). */
  lastRequest: LastRequest | null
}

/** What the operator's list shows of an app's newest journaled request. */
export interface LastRequest {
  seq: number
  method: string
  path: string
  status: number
  code: number | null
  message: string | null
}

export interface ActivityFilter {
  /** appKeys starting with this (letters and digits). */
  prefix?: string | undefined
  /** Last request at or after / before these real times (epoch ms). */
  activeSince?: number | undefined
  activeUntil?: number | undefined
  /** Only apps more recently active than this `activity` (newer: a waiting list). */
  after?: number | undefined
  /** Only apps less recently active than this (the next page). */
  before?: number | undefined
  limit: number
}

interface Row {
  app_key: string
  created_at: number
  clock_offset_ms: number
  activity: number
  last_request_at: number | null
  requests: number
  refusals: number
  texts: number
  pushes: number
  devices: number
  last_seq: number | null
  last_method: string | null
  last_path: string | null
  last_status: number | null
  last_code: number | null
  last_message: string | null
}

/**
 * Each app's activity (migration 014): made with the app (apps.ts), touched by each commit of
 * the request journal, deleted with the app's rows. `activity` comes from one counter in memory,
 * started from the largest stored (one process per database file: engine/db.ts), so the apps most
 * recently active list first and `after=` reads what became active since.
 */
export function createActivityStore({ db }: Engine) {
  const largest = db.prepare<[], number | null>('SELECT max(activity) FROM app_activity').pluck()
  const insert = db.prepare<{ appKey: string; activity: number }>(
    'INSERT INTO app_activity (app_key, activity) VALUES (@appKey, @activity)',
  )
  const touch = db.prepare<{
    appKey: string
    activity: number
    at: number
    requests: number
    refusals: number
  }>(
    `UPDATE app_activity SET activity = @activity, last_request_at = max(coalesce(last_request_at, 0), @at),
       requests = requests + @requests, refusals = refusals + @refusals WHERE app_key = @appKey`,
  )
  const prepared = new Map<string, ReturnType<typeof db.prepare<Record<string, unknown>, Row>>>()
  let counter: number | undefined
  const next = () => {
    counter = (counter ?? largest.get() ?? 0) + 1
    return counter
  }

  return {
    /** A new app is active now (inside the write that inserts it). */
    created(appKey: string): void {
      insert.run({ appKey, activity: next() })
    },
    /** Journaled requests of the app (`at`: real time of the last), inside a write job. */
    touched(appKey: string, at: number, requests: number, refusals: number): void {
      touch.run({ appKey, activity: next(), at, requests, refusals })
    },
    /** The next `activity`: the app it is given is the most recently active (an import's). */
    next,
    /** The largest `activity` so far (0: none). */
    current(): number {
      counter ??= largest.get() ?? 0
      return counter
    },
    /** Apps by their latest activity, newest first; with `after`, the `limit` right after it. */
    list(filter: ActivityFilter): AppActivity[] {
      const conditions: string[] = []
      const params: Record<string, unknown> = { limit: filter.limit }
      const add = (name: keyof ActivityFilter, condition: string) => {
        if (filter[name] === undefined) return
        conditions.push(condition)
        params[name] = filter[name]
      }
      // GLOB is case-sensitive, as appKeys are; the prefix holds only letters and digits.
      add('prefix', "x.app_key GLOB @prefix || '*'")
      add('activeSince', 'x.last_request_at >= @activeSince')
      add('activeUntil', 'x.last_request_at < @activeUntil')
      add('after', 'x.activity > @after')
      add('before', 'x.activity < @before')
      const ascending = filter.after !== undefined
      const sql = `SELECT x.app_key, a.created_at, a.clock_offset_ms, x.activity, x.last_request_at, x.requests,
          x.refusals,
          (SELECT count(*) FROM messages m WHERE m.app_key = x.app_key) AS texts,
          (SELECT count(*) FROM pushes p WHERE p.app_key = x.app_key) AS pushes,
          (SELECT count(*) FROM push_devices d WHERE d.app_key = x.app_key) AS devices,
          r.seq AS last_seq, r.method AS last_method, r.path AS last_path, r.status AS last_status,
          r.code AS last_code, r.message AS last_message
        FROM app_activity x JOIN apps a ON a.app_key = x.app_key
        -- Its newest journal entry: one step down requests_by_seq (app_key, seq) per app listed.
        LEFT JOIN requests r ON r.app_key = x.app_key
          AND r.seq = (SELECT max(seq) FROM requests WHERE app_key = x.app_key)
        ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
        ORDER BY x.activity ${ascending ? 'ASC' : 'DESC'} LIMIT @limit`
      let statement = prepared.get(sql)
      if (!statement) {
        statement = db.prepare<Record<string, unknown>, Row>(sql)
        prepared.set(sql, statement)
      }
      const rows = statement.all(params).map(
        (r): AppActivity => ({
          appKey: r.app_key,
          createdAt: r.created_at,
          clockOffsetMs: r.clock_offset_ms,
          activity: r.activity,
          lastRequestAt: r.last_request_at,
          requests: r.requests,
          refusals: r.refusals,
          texts: r.texts,
          pushes: r.pushes,
          devices: r.devices,
          lastRequest:
            r.last_seq === null
              ? null
              : {
                  seq: r.last_seq,
                  method: r.last_method ?? '',
                  path: r.last_path ?? '',
                  status: r.last_status ?? 0,
                  code: r.last_code,
                  message: r.last_message,
                },
        }),
      )
      return ascending ? rows.reverse() : rows
    },
  }
}

export type ActivityStore = ReturnType<typeof createActivityStore>
