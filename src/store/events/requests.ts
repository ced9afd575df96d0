import type { ActivityStore } from '../apps/activity.js'
import type { Engine } from '../engine/index.js'
import { createLister, type ListWindow } from '../engine/lister.js'

/**
 * The pseudo-app the operator's waits listen to (GET /_sandbox/apps?wait=): every commit of the
 * journal marks it, so the hub wakes them (events/hub.ts) as it wakes an app's own waiters. No
 * appKey can be it (appKeys are 24 letters or digits).
 */
export const ALL_APPS = '*'

/** One request as the journal keeps it (migration 014). Times: `at` the app's, `realAt` real. */
export interface JournalEntry {
  appKey: string
  at: number
  realAt: number
  method: string
  path: string
  query: string | null
  surface: string
  status: number
  code: number | null
  message: string | null
  reason: string | null
  /** Ids created (from the answer) or named in the path, by their vendor name. */
  ids: Record<string, string[]> | null
  durationMs: number
  client: string
  userAgent: string | null
  operator: boolean
  /**
   * Whether the request got past its credentials as the app's (or the operator's for it). False:
   * a stranger naming the appKey (a wrong secret…), kept in a ring of its own (STRANGERS_KEPT).
   */
  authenticated: boolean
  requestBody: string | null
  answerBody: string | null
  /** What production would do otherwise (src/advisor/); null: nothing to say (migration 024). */
  warnings: readonly Warning[] | null
}

/**
 * One warning of the production advisor (src/advisor/): the rule, what it found in this call, and
 * where the rule comes from (the vendor's document, or the SDK tracker's issue).
 */
export interface Warning {
  rule: string
  message: string
  source: string
}

export type JournaledRequest = JournalEntry & { seq: number }

/** How many ids of one request are kept (a 1000-recipient batch creates 1000 msg_ids). */
const IDS_CAP = 1000
/** Answers parsed for their ids only up to this size. */
const PARSE_CAP = 256 * 1024
/** Entries kept in memory before they are written at once rather than with a later commit. */
const PENDING_MAX = 2000
/**
 * Entries of strangers (requests that named the app but did not authenticate as it) each app keeps,
 * apart from its own `keep`: enough to see who knocked and why they were refused, while a stranger
 * who knows only the appKey can never push the app's own entries out of its journal.
 */
export const STRANGERS_KEPT = 50

/** The ids a call creates or names, by their vendor names (the journal's `ids`, its `msg_id=`). */
const ID_KEYS = new Set([
  'msg_id',
  'group_msgid',
  'schedule_id',
  'temp_id',
  'sign_id',
  'registration_id',
  'file_id',
  'cid',
])

/** Whether a request's answer holds the ids it created: a write that succeeded. */
export const createdIds = (method: string, status: number) =>
  status < 300 && method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS'

/** Ids by their vendor names, each once, from a request's path and answer. */
export function collectIds() {
  const ids: Record<string, string[]> = {}
  let n = 0
  const add = (key: string, value: unknown) => {
    if (!ID_KEYS.has(key) || n >= IDS_CAP) return
    if ((typeof value !== 'string' && typeof value !== 'number') || value === '') return
    const text = String(value)
    const list = ids[key]
    if (list?.includes(text)) return
    if (list) list.push(text)
    else ids[key] = [text]
    n++
  }
  const walk = (value: unknown, depth: number): void => {
    if (depth > 4 || value === null || typeof value !== 'object') return
    if (Array.isArray(value)) {
      for (const v of value) walk(v, depth + 1)
      return
    }
    for (const [key, v] of Object.entries(value)) {
      if (ID_KEYS.has(key)) add(key, v)
      else walk(v, depth + 1)
    }
  }
  return {
    add,
    /** The ids of a JSON answer (one cut short, or not JSON, has none). */
    addAnswer(text: string): void {
      const c = text.charCodeAt(0)
      if (text.length > PARSE_CAP || (c !== 123 /* { */ && c !== 91) /* [ */) return
      try {
        walk(JSON.parse(text), 0)
      } catch {
        // Not JSON, or cut at the journal's cap: its ids were kept apart when written.
      }
    },
    addAll(given: Record<string, string[]>): void {
      for (const [key, values] of Object.entries(given)) for (const v of values) add(key, v)
    },
    result: (): Record<string, string[]> | null => (n === 0 ? null : ids),
  }
}

export interface RequestFilter extends ListWindow {
  method?: string | undefined
  path?: string | undefined
  status?: number | undefined
  code?: number | undefined
  msg_id?: string | undefined
  /** A rule's name, or `any`: the requests that got a warning (of that rule). */
  warning?: string | undefined
}

interface Row {
  app_key: string
  seq: number
  at: number
  real_at: number
  method: string
  path: string
  query: string | null
  surface: string
  status: number
  code: number | null
  message: string | null
  reason: string | null
  ids: string | null
  duration_ms: number
  client: string
  user_agent: string | null
  operator: number
  authenticated: number
  request_body: string | null
  answer_body: string | null
  warnings: string | null
}

/** The ids kept apart (the path's), and those the kept answer holds. */
function idsOf(r: Row): Record<string, string[]> | null {
  if (r.answer_body === null || !createdIds(r.method, r.status))
    return r.ids === null ? null : JSON.parse(r.ids)
  const ids = collectIds()
  if (r.ids !== null) ids.addAll(JSON.parse(r.ids))
  ids.addAnswer(r.answer_body)
  return ids.result()
}

const toEntry = (r: Row): JournaledRequest => ({
  appKey: r.app_key,
  seq: r.seq,
  at: r.at,
  realAt: r.real_at,
  method: r.method,
  path: r.path,
  query: r.query,
  surface: r.surface,
  status: r.status,
  code: r.code,
  message: r.message,
  reason: r.reason,
  ids: idsOf(r),
  durationMs: r.duration_ms,
  client: r.client,
  userAgent: r.user_agent,
  operator: r.operator === 1,
  authenticated: r.authenticated === 1,
  requestBody: r.request_body,
  answerBody: r.answer_body,
  warnings: r.warnings === null ? null : JSON.parse(r.warnings),
})

/**
 * The request journal (migration 014). Each answered request the journal keeps is `record`ed as
 * it is answered (http/journal.ts makes its entry) and stays in memory until one job, riding with
 * a commit the other writes make (engine/writer.ts: `ride`), writes every entry recorded
 * meanwhile: a send's entry is committed with sends that arrive after it, and never costs an
 * fsync of its own, nor a turn of the answer. On a quiet sandbox that is the next commit; on a
 * busy one, the first after RIDE_MS, so that one commit writes the rows of many (idle, it commits
 * alone after RIDE_MS; a read that needs it has it at once: `settled()`). Each row takes the app's
 * next seq then (seqs stay in commit order: `request.completed` on the stream), and the app's
 * activity is touched once per such commit (apps/activity.ts). An app's journal is two rings: its
 * own requests, `keep` rows, and its strangers', STRANGERS_KEPT rows (migration 019). Once a ring
 * is full, each new entry overwrites that ring's oldest row in place (a row appended and another
 * deleted cost ≈ 1 µs more per request: docs/performance.md); a reset or a removal deletes the
 * rows with every other row of the app.
 *
 * The control plane's handlers, and due work that `readsJournal`, run after `settled()` (http/
 * journal.ts: `journalFirst`; scheduler/index.ts): whatever was answered before them is then in
 * SQLite, journal included; no feature calls it. The journal never fails a request: a write
 * the store refuses (its file damaged: health.ts, which reports it) only loses the entries.
 */
export function createRequestJournal(
  { db, seqs, writes, ride, hurry, caches }: Engine,
  activity: ActivityStore,
  keep: number,
) {
  const strangersKept = Math.min(keep, STRANGERS_KEPT)
  // Positional: binding 20 values by name cost ≈ 0.7 µs more per request (docs/performance.md). The
  // app's key 19th; each row's seq (`request.completed` on the stream) taken and bound by the engine.
  const journaled = { key: (values: unknown[]) => values[18] as string, seq: 'requests' } as const
  const insert = writes<unknown[]>(
    `INSERT INTO requests (seq, at, real_at, method, path, query, surface, status, code, message, reason, ids,
       duration_ms, client, user_agent, operator, request_body, answer_body, warnings, app_key, authenticated)
     VALUES (@seq, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    journaled,
  )
  // The oldest row of the entry's own ring; `authenticated` is a literal in each, so that the
  // strangers' statement reads their partial index (migration 019).
  const overwriteOf = (authenticated: 0 | 1) =>
    writes<unknown[]>(
      `UPDATE requests SET seq = @seq, at = ?, real_at = ?, method = ?, path = ?, query = ?, surface = ?, status = ?,
         code = ?, message = ?, reason = ?, ids = ?, duration_ms = ?, client = ?, user_agent = ?, operator = ?,
         request_body = ?, answer_body = ?, warnings = ?
       WHERE rowid = (SELECT rowid FROM requests WHERE app_key = ? AND authenticated = ${authenticated}
         ORDER BY seq LIMIT 1)`,
      journaled,
    )
  const overwrite = { own: overwriteOf(1), strangers: overwriteOf(0) }
  const countOf = db.prepare<[string], { own: number | null; strangers: number | null }>(
    `SELECT sum(authenticated) AS own, sum(1 - authenticated) AS strangers FROM requests WHERE app_key = ?`,
  )
  // Down to what a ring keeps (a journal kept longer by an earlier setting).
  const prune = db.prepare<{ appKey: string; authenticated: number; keep: number }>(
    `DELETE FROM requests WHERE app_key = @appKey AND authenticated = @authenticated AND seq < (
       SELECT seq FROM requests WHERE app_key = @appKey AND authenticated = @authenticated
       ORDER BY seq DESC LIMIT 1 OFFSET @keep - 1)`,
  )
  // Rows each app's rings hold: read once, then kept beside the writes (a rollback forgets it,
  // and so does a reset: caches.ts).
  const held = caches.rows<string, Held>({ perApp: true, journaled: true })
  const list = createLister<'method' | 'path' | 'status' | 'code' | 'msg_id' | 'warning', Row>(db, {
    columns: '*',
    from: 'requests',
    appKey: 'app_key',
    seq: 'seq',
    time: 'at',
    filters: {
      method: 'method = @method',
      // A prefix, compared as text (no LIKE: `_` and `%` are ordinary in a path).
      path: 'substr(path, 1, length(@path)) = @path',
      status: 'status = @status',
      code: 'code = @code',
      // Named in its path (or created, for an answer too long to keep), or in its kept answer.
      msg_id: `(instr(ids, '"' || @msg_id || '"') > 0 OR (status < 300 AND method NOT IN ('GET', 'HEAD', 'OPTIONS')
        AND instr(answer_body, '"' || @msg_id || '"') > 0))`,
      // The JSON array of migration 024: a rule's name is written `"rule":"<name>"`.
      warning: `(warnings IS NOT NULL AND (@warning = 'any'
        OR instr(warnings, '"rule":' || json_quote(@warning)) > 0))`,
    },
  })
  const exists = db.prepare<[string], number>('SELECT 1 FROM apps WHERE app_key = ?').pluck()

  /** The rows the app's rings hold now (read once, then kept beside the writes). */
  function heldBy(appKey: string): Held {
    const known = held.get(appKey)
    if (known !== undefined) return { ...known }
    const counted = countOf.get(appKey)
    const n = { own: counted?.own ?? 0, strangers: counted?.strangers ?? 0 }
    if (n.own > keep) {
      prune.run({ appKey, authenticated: 1, keep })
      n.own = keep
    }
    if (n.strangers > strangersKept) {
      prune.run({ appKey, authenticated: 0, keep: strangersKept })
      n.strangers = strangersKept
    }
    return n
  }

  /** One request of its app, whose rings hold `n` rows, inside a write job (keep ≥ 1: `enabled`). */
  function append(e: JournalEntry, n: Held): void {
    const ring = e.authenticated ? 'own' : 'strangers'
    const max = e.authenticated ? keep : strangersKept
    const values: unknown[] = [
      e.at,
      e.realAt,
      e.method,
      e.path,
      e.query,
      e.surface,
      e.status,
      e.code,
      e.message,
      e.reason,
      e.ids === null ? null : JSON.stringify(e.ids),
      e.durationMs,
      e.client,
      e.userAgent,
      e.operator ? 1 : 0,
      e.requestBody,
      e.answerBody,
      e.warnings === null ? null : JSON.stringify(e.warnings),
      e.appKey,
    ]
    if (n[ring] < max) {
      values.push(e.authenticated ? 1 : 0)
      insert.run(values)
      n[ring] += 1
    } else overwrite[ring].run(values)
  }

  /** Inside the write job: the entries of apps that still exist, each app's activity once. */
  function writeAll(entries: JournalEntry[]): void {
    const touched = new Map<string, { at: number; requests: number; refusals: number; n: Held }>()
    for (const e of entries) {
      let t = touched.get(e.appKey)
      if (!t) {
        // An app removed since its answer (DELETE /_sandbox/app) keeps no journal.
        if (exists.get(e.appKey) === undefined) continue
        t = { at: 0, requests: 0, refusals: 0, n: heldBy(e.appKey) }
        touched.set(e.appKey, t)
      }
      append(e, t.n)
      t.at = Math.max(t.at, e.realAt)
      t.requests += 1
      if (e.status >= 400) t.refusals += 1
    }
    for (const [appKey, t] of touched) {
      held.remember(appKey, t.n)
      activity.touched(appKey, t.at, t.requests, t.refusals)
    }
    if (touched.size > 0) seqs.mark(ALL_APPS, 'requests')
  }

  let pending: JournalEntry[] = []
  let queued = false
  let last: Promise<void> = Promise.resolve()
  let closed = false

  return {
    /** Whether requests are journaled at all (JOURNAL_MAX_PER_APP > 0). */
    enabled: keep > 0,
    /** Keeps the entry of an answered request (one per app it spoke for), written with a later commit. */
    record(entry: JournalEntry): void {
      if (closed || keep === 0) return
      pending.push(entry)
      // Memory held for the journal stays bounded however busy the sandbox is.
      if (pending.length === PENDING_MAX) hurry()
      if (queued) return
      queued = true
      let batch: JournalEntry[] | undefined
      // With a commit the others make: a commit of its own after each batch of answers was a
      // second fsync per batch (engine/writer.ts: RIDE_MS).
      last = ride(() => {
        // Taken once: a batch rerun with savepoints (writer.ts) writes the same entries again.
        if (batch === undefined) {
          queued = false
          batch = pending
          pending = []
        }
        writeAll(batch)
      }).catch(() => {
        // The store refused the batch (health.ts reports why): these entries are lost.
        queued = false
      })
    },
    /** Resolves once every entry recorded so far is committed (or lost with a refused write). */
    settled(): Promise<void> {
      hurry()
      return last
    },
    /** The sandbox closes: what is queued goes with the store's last flush; nothing more is kept. */
    close(): void {
      closed = true
    },
    /** The app's journal, newest first (lister.ts). */
    list(appKey: string, filter: RequestFilter): JournaledRequest[] {
      return list(appKey, filter).map(toEntry)
    },
  }
}

/** Rows an app's two rings hold. */
interface Held {
  own: number
  strangers: number
}

export type RequestJournal = ReturnType<typeof createRequestJournal>
