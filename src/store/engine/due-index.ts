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

/**
 * When the next due work falls due, known in memory, so that re-arming the scheduler after every
 * answer and the catch-up before every handler cost a comparison, not SQLite queries. Each value is
 * a lower bound: the statements that create due work or bring it forward tell it (`note`, declared
 * with the statement: statements.ts), while work that is done or removed is not told, so a bound
 * may be too early (then the work is looked at and the bound asked again from SQLite) but never too
 * late. A bound read inside a transaction is not kept (the write may still roll back).
 *
 * Two kinds of bound: per kind, the process time of the earliest due work of that kind in every
 * app (the scheduler's timer is the smallest; a tick runs only the kinds whose bound has come:
 * scheduler/index.ts), and per app the app time of its earliest due work of the kinds a request
 * catches up (scheduler/catch-up.ts). An app's clock move changes how its times map to process
 * times: every process-wide bound is asked again. After a kind ran, only its bound is asked again
 * (under a send load, reports fall due all the time: the other six kinds' queries are not re-run).
 */
export function createDueIndex(db: Db, offsetOf: (appKey: string) => number) {
  const bounds = new Map<DueKind, number | undefined>() // absent: not known
  const apps = new Map<string, number | undefined>() // absent: not known
  let perApp: ReadonlySet<DueKind> = new Set(DUE_KINDS)
  let sooner = () => {}

  const keep = (): boolean => !db.inTransaction
  /** The smallest known bound (kinds not known are left out: the next arm asks them). */
  const smallest = (): number | undefined => {
    let min: number | undefined
    for (const t of bounds.values()) if (t !== undefined && (min === undefined || t < min)) min = t
    return min
  }

  return {
    /** A write creates due work of `kind` for `appKey` at `at` (the app's time), or brings some forward. */
    note(kind: DueKind, appKey: string, at: number): void {
      if (perApp.has(kind) && apps.has(appKey)) {
        const known = apps.get(appKey)
        if (known === undefined || at < known) apps.set(appKey, at)
      }
      if (!bounds.has(kind)) return
      const t = at - offsetOf(appKey)
      const known = bounds.get(kind)
      if (known !== undefined && t >= known) return
      const before = smallest()
      bounds.set(kind, t)
      if (before === undefined || t < before) sooner()
    },
    /** Due times moved in a way no single note says (an app's clock offset, a restart's redo): ask again. */
    remap(): void {
      bounds.clear()
      sooner()
    },
    /** Process time of the earliest due work of `kind` in any app; `ask` (SQLite) when not known. */
    boundOf(kind: DueKind, ask: () => number | undefined): number | undefined {
      if (bounds.has(kind)) return bounds.get(kind)
      const t = ask()
      if (keep()) bounds.set(kind, t)
      return t
    },
    /** Process time of the earliest due work of any kind and app; `ask` for each kind not known. */
    earliest(ask: (kind: DueKind) => number | undefined): number | undefined {
      let min: number | undefined
      for (const kind of DUE_KINDS) {
        const t = this.boundOf(kind, () => ask(kind))
        if (t !== undefined && (min === undefined || t < min)) min = t
      }
      return min
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
      bounds.clear()
      sooner()
    },
    /** The scheduler ran the due work of `kind` (of every kind when none is named): asked again. */
    ran(kind?: DueKind): void {
      if (kind === undefined) bounds.clear()
      else bounds.delete(kind)
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
