import type { DueQuery } from '../engine/due.js'
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
  last_seq: number | null
  last_method: string | null
  last_path: string | null
  last_status: number | null
  last_code: number | null
  last_message: string | null
}

/** An app that expires when idle, as the expiry job first sees it (app-expiry.ts). */
export interface IdleApp {
  appKey: string
  /** Process time of its last activity the job knew of (migration 021). */
  idleSince: number
  /** Real time of its last journaled request; null: none. */
  lastRequestAt: number | null
}

/**
 * Each app's activity (migration 014): made with the app (apps.ts), touched by each commit of
 * the request journal, deleted with the app's rows. `activity` comes from one counter in memory,
 * started from the largest stored (one process per database file: engine/db.ts), so the apps most
 * recently active list first and `after=` reads what became active since.
 *
 * And when an app that expires when idle is next looked at (migration 021): `idle_since` plus
 * `idleMs` (AUTO_PROVISION_IDLE_MS; 0: none expires), the due work of app-expiry.ts.
 */
export function createActivityStore(
  { db, writes }: Engine,
  {
    idleMs = 0,
    devicesOf = () => 0,
  }: {
    idleMs?: number
    /** An app's registered devices (the registry's count, kept in memory: push/device/devices-table.ts). */
    devicesOf?: (appKey: string) => number
  } = {},
) {
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
  const idleSinceOf = db
    .prepare<[string], number | null>('SELECT idle_since FROM app_activity WHERE app_key = ?')
    .pluck()
  const idleBefore = db.prepare<
    { cutoff: number; limit: number },
    { app_key: string; idle_since: number; last_request_at: number | null }
  >(
    `SELECT app_key, idle_since, last_request_at FROM app_activity
     WHERE idle_since IS NOT NULL AND idle_since <= @cutoff ORDER BY idle_since LIMIT @limit`,
  )
  // Process times: idleness is the process's, not an app's clock, so a move of the app's clock
  // (scheduler/advance.ts, which steps through each query's `one` in app time) has nothing of it
  // to step through.
  const idleDue: DueQuery | undefined =
    idleMs > 0
      ? {
          every: `SELECT MIN(idle_since) + ${idleMs} AS t FROM app_activity WHERE idle_since IS NOT NULL`,
          one: 'SELECT NULL AS t FROM app_activity WHERE app_key = @appKey',
        }
      : undefined
  const setIdleSince = writes<{ appKey: string; since: number | null }>(
    'UPDATE app_activity SET idle_since = @since WHERE app_key = @appKey',
    { due: idleDue && { query: idleDue, at: ({ since }) => (since === null ? null : since + idleMs) } },
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
    /**
     * The app expires when idle from `since` on (process time), or never (null); inside a write.
     * An auto-provisioned app at its creation, and each time the expiry job finds it in use.
     */
    expiresWhenIdle(appKey: string, since: number | null): void {
      setIdleSince.run({ appKey, since })
    },
    /** Since when the app is idle as far as its expiry knows; null: it never expires. */
    idleSince: (appKey: string): number | null => idleSinceOf.get(appKey) ?? null,
    /** The apps that expire when idle and were idle since `cutoff` or before, longest idle first. */
    idleBefore(cutoff: number, limit: number): IdleApp[] {
      return idleBefore.all({ cutoff, limit }).map(r => ({
        appKey: r.app_key,
        idleSince: r.idle_since,
        lastRequestAt: r.last_request_at,
      }))
    },
    /** When the next app that expires when idle is to be looked at; none with AUTO_PROVISION_IDLE_MS 0. */
    idleDue,
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
      // The page first (the apps' activity rows, sorted and cut to `limit`), then what each row
      // shows, for the page's rows only: SQLite computes a result column for every row it sorts,
      // so the counts and the newest entry beside the ORDER BY were computed for all 10 000 apps
      // of a shared instance to show 50 (204 ms; docs/performance.md, "A shared sandbox as it fills").
      // The devices are the registry's count (kept in memory per app: push/device/devices-table.ts),
      // not counted here.
      const sql = `SELECT x.app_key, a.created_at, a.clock_offset_ms, x.activity, x.last_request_at, x.requests,
          x.refusals,
          (SELECT count(*) FROM messages m WHERE m.app_key = x.app_key) AS texts,
          (SELECT count(*) FROM pushes p WHERE p.app_key = x.app_key) AS pushes,
          r.seq AS last_seq, r.method AS last_method, r.path AS last_path, r.status AS last_status,
          r.code AS last_code, r.message AS last_message
        FROM (SELECT app_key, activity, last_request_at, requests, refusals FROM app_activity x
          ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
          ORDER BY x.activity ${ascending ? 'ASC' : 'DESC'} LIMIT @limit) x
        JOIN apps a ON a.app_key = x.app_key
        -- Its newest journal entry: one step down requests_by_seq (app_key, seq) per app listed.
        LEFT JOIN requests r ON r.app_key = x.app_key
          AND r.seq = (SELECT max(seq) FROM requests WHERE app_key = x.app_key)
        ORDER BY x.activity ${ascending ? 'ASC' : 'DESC'}`
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
          devices: devicesOf(r.app_key),
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
