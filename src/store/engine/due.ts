import type { Statement } from 'better-sqlite3'
import type { Db } from './db.js'

/**
 * Where the due times of one kind of row are read, in SQL: `every`, the earliest over every app in
 * process time (each due time minus its app's clock offset, migration 002); `one`, the earliest of
 * the app `@appKey` in its own time. A table module whose rows fall due declares it beside the
 * statements that create such rows (each declares it: statements.ts, `due`); the due-work entry
 * that runs those rows lists it as its `nextDue` (src/scheduler/due-work.ts).
 */
export interface DueQuery {
  readonly every: string
  readonly one: string
}

/** The usual pair: the smallest `time` of the rows of `from` (aliased `x`) that match `where`. */
export function dueQuery(time: string, from: string, where: string): DueQuery {
  return {
    every: `SELECT MIN(${time} - a.clock_offset_ms) AS t FROM ${from} JOIN apps a ON a.app_key = x.app_key WHERE ${where}`,
    one: `SELECT MIN(${time}) AS t FROM ${from} WHERE x.app_key = @appKey AND ${where}`,
  }
}

/** Bounded like the row caches: forgetting an app only means asking SQLite again. */
const LIMIT = 10_000

type Prepared = {
  every: Statement<[], { t: number | null }>
  one: Statement<[{ appKey: string }], { t: number | null }>
}

/**
 * When the next due work falls due, known in memory, so that re-arming the scheduler after every
 * answer and the catch-up before every handler cost a comparison, not SQLite queries. Each value is
 * a lower bound: the table methods that create due work or bring it forward say so (`note`), while
 * work that is done or removed is not told, so a bound may be too early (then the work is looked at
 * and the bound asked again of SQLite) but never too late. A bound read inside a transaction is
 * not kept (the write may still roll back).
 *
 * Two kinds of bound: per query, the process time of its earliest row in every app (the
 * scheduler's timer is the smallest; a tick runs only the entries whose bound has come:
 * scheduler/index.ts), and per app the app time of its earliest row among the queries a request
 * catches up (scheduler/catch-up.ts). An app's clock move changes how its times map to process
 * times: every process-wide bound is asked again. After an entry ran, only its queries are asked
 * again (under a send load, reports fall due all the time: the other queries are not re-run).
 *
 * The index knows queries, not kinds: which queries make up which kind of work is the due-work
 * list's (src/app.ts).
 */
export function createDueIndex(db: Db, offsetOf: (appKey: string) => number) {
  const bounds = new Map<DueQuery, number | undefined>() // absent: not known
  const apps = new Map<string, number | undefined>() // absent: not known
  const prepared = new Map<DueQuery, Prepared>()
  let perApp: readonly DueQuery[] = []
  let perAppSet: ReadonlySet<DueQuery> = new Set()
  let sooner = () => {}
  /** How often SQLite was asked, over every app and for one app (tests count the misses). */
  const asked = { everyApp: 0, oneApp: 0 }

  const keep = (): boolean => !db.inTransaction
  /** The smallest known bound (queries not known are left out: the next arm asks them). */
  const smallest = (): number | undefined => {
    let min: number | undefined
    for (const t of bounds.values()) if (t !== undefined && (min === undefined || t < min)) min = t
    return min
  }

  /** SQLite's answer for one query: over every app, or the app time of `appKey`. */
  function ask(query: DueQuery, appKey?: string): number | undefined {
    let statements = prepared.get(query)
    if (!statements) {
      statements = { every: db.prepare(query.every), one: db.prepare(query.one) }
      prepared.set(query, statements)
    }
    if (appKey === undefined) {
      asked.everyApp++
      return statements.every.get()?.t ?? undefined
    }
    asked.oneApp++
    return statements.one.get({ appKey })?.t ?? undefined
  }

  function boundOf(query: DueQuery): number | undefined {
    if (bounds.has(query)) return bounds.get(query)
    const t = ask(query)
    if (keep()) bounds.set(query, t)
    return t
  }

  /** The earliest of `queries` for one app, asked of SQLite. */
  function askApp(queries: Iterable<DueQuery>, appKey: string): number | undefined {
    let min: number | undefined
    for (const q of queries) {
      const t = ask(q, appKey)
      if (t !== undefined && (min === undefined || t < min)) min = t
    }
    return min
  }

  return {
    asked: asked as Readonly<typeof asked>,
    /** A write creates a row of `query` for `appKey`, due at `at` (the app's time), or brings one forward. */
    note(query: DueQuery, appKey: string, at: number): void {
      if (perAppSet.has(query) && apps.has(appKey)) {
        const known = apps.get(appKey)
        if (known === undefined || at < known) apps.set(appKey, at)
      }
      if (!bounds.has(query)) return
      const t = at - offsetOf(appKey)
      const known = bounds.get(query)
      if (known !== undefined && t >= known) return
      const before = smallest()
      bounds.set(query, t)
      if (before === undefined || t < before) sooner()
    },
    /** Due times moved in a way no single note says (an app's clock offset, a restart's redo): ask again. */
    remap(): void {
      bounds.clear()
      sooner()
    },
    /** Process time of the earliest row of `queries` in any app: from memory, SQLite for a query not known. */
    earliest(queries: Iterable<DueQuery>): number | undefined {
      let min: number | undefined
      for (const q of queries) {
        const t = boundOf(q)
        if (t !== undefined && (min === undefined || t < min)) min = t
      }
      return min
    },
    /** App time of the app's earliest row of the queries requests catch up (`watch`), kept per app. */
    earliestOf(appKey: string): number | undefined {
      if (apps.has(appKey)) return apps.get(appKey)
      const t = askApp(perApp, appKey)
      if (keep()) {
        if (apps.size >= LIMIT) apps.clear()
        apps.set(appKey, t)
      }
      return t
    },
    /** App time of the app's earliest row of `queries`, asked of SQLite now (a clock move's next step). */
    nextOf: askApp,
    /** The app's rows are gone and its clock offset may change (a reset): ask again for it and all. */
    forgetApp(appKey: string): void {
      apps.delete(appKey)
      bounds.clear()
      sooner()
    },
    /** The scheduler ran the work of `queries` (of every query when none are named): asked again. */
    ran(queries?: Iterable<DueQuery>): void {
      if (queries === undefined) bounds.clear()
      else for (const q of queries) bounds.delete(q)
    },
    /** A request caught up the app's due work: its bound is asked again. */
    ranFor(appKey: string): void {
      apps.delete(appKey)
    },
    /**
     * Set by the scheduler: the queries requests catch up (kept per app), and what to do when due
     * work falls due sooner than the process-wide bound said (re-arm the timer).
     */
    watch(options: { perApp: readonly DueQuery[]; sooner: () => void }): void {
      perApp = options.perApp
      perAppSet = new Set(options.perApp)
      sooner = options.sooner
      apps.clear()
    },
  }
}

export type DueIndex = ReturnType<typeof createDueIndex>
