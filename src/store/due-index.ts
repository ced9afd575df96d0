import type { Db } from './db.js'

/** The kinds of due work, named as their entries in the scheduler's list (scheduler/due-work.ts). */
export type DueKind =
  | 'reviews'
  | 'schedules'
  | 'push schedules'
  | 'reports'
  | 'review results'
  | 'callbacks'
  | 'push'

export const DUE_KINDS: readonly DueKind[] = [
  'reviews',
  'schedules',
  'push schedules',
  'reports',
  'review results',
  'callbacks',
  'push',
]

/** Bounded like the row caches: forgetting an app only means asking SQLite again. */
const LIMIT = 10_000

const UNKNOWN = Symbol('unknown')

/**
 * When the next due work falls due, known in memory, so that re-arming the scheduler after every
 * answer and the catch-up before every handler cost a comparison, not SQLite queries. Each value is
 * a lower bound: the statements that create due work or bring it forward tell it (`note`, declared
 * with the statement: statements.ts), while work that is done or removed is not told, so a bound
 * may be too early (then the work is looked at and the bound asked again from SQLite) but never too
 * late. A bound read inside a transaction is not kept (the write may still roll back).
 *
 * Two kinds of bound: the process time of the earliest due work of every app (the scheduler's
 * timer), and per app the app time of its earliest due work of the kinds a request catches up
 * (scheduler/catch-up.ts). An app's clock move changes how its times map to process times: the
 * process-wide bound is asked again.
 */
export function createDueIndex(db: Db, offsetOf: (appKey: string) => number) {
  let earliest: number | undefined | typeof UNKNOWN = UNKNOWN
  const apps = new Map<string, number | undefined>() // absent: not known
  let perApp: ReadonlySet<DueKind> = new Set(DUE_KINDS)
  let sooner = () => {}

  const keep = (): boolean => !db.inTransaction

  return {
    /** A write creates due work of `kind` for `appKey` at `at` (the app's time), or brings some forward. */
    note(kind: DueKind, appKey: string, at: number): void {
      if (perApp.has(kind) && apps.has(appKey)) {
        const known = apps.get(appKey)
        if (known === undefined || at < known) apps.set(appKey, at)
      }
      if (earliest === UNKNOWN) return
      const t = at - offsetOf(appKey)
      if (earliest === undefined || t < earliest) {
        earliest = t
        sooner()
      }
    },
    /** Due times moved in a way no single note says (an app's clock offset, a restart's redo): ask again. */
    remap(): void {
      earliest = UNKNOWN
      sooner()
    },
    /** Process time of the earliest due work of any app; `ask` (SQLite) when it is not known. */
    earliest(ask: () => number | undefined): number | undefined {
      if (earliest !== UNKNOWN) return earliest
      const t = ask()
      if (keep()) earliest = t
      return t
    },
    /** App time of the app's earliest due work that requests catch up; `ask` when not known. */
    earliestOf(appKey: string, ask: (appKey: string) => number | undefined): number | undefined {
      if (apps.has(appKey)) return apps.get(appKey)
      const t = ask(appKey)
      if (keep()) {
        if (apps.size >= LIMIT) apps.clear()
        apps.set(appKey, t)
      }
      return t
    },
    /** The app's rows are gone and its clock offset may change (a reset): ask again for it and all. */
    forgetApp(appKey: string): void {
      apps.delete(appKey)
      earliest = UNKNOWN
      sooner()
    },
    /** The scheduler ran due work: the process-wide bound is asked again. */
    ran(): void {
      earliest = UNKNOWN
    },
    /** A request caught up the app's due work: its bound is asked again. */
    ranFor(appKey: string): void {
      apps.delete(appKey)
    },
    /**
     * Set by the scheduler: the kinds requests catch up (kept per app), and what to do when due
     * work falls due sooner than the process-wide bound said (re-arm the timer).
     */
    watch(options: { perApp: Iterable<DueKind>; sooner: () => void }): void {
      perApp = new Set(options.perApp)
      sooner = options.sooner
      apps.clear()
    },
  }
}

export type DueIndex = ReturnType<typeof createDueIndex>
