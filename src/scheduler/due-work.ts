import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from '../clock.js'
import type { App } from '../store/apps/apps.js'
import type { DueQuery } from '../store/engine/index.js'
import type { Announces } from '../store/events/log.js'
import type { Store } from '../store/index.js'

/** What the scheduler itself uses of the deps it hands to the entries of its list. */
export interface SchedulerDeps {
  store: Store
  clock: Clock
  log: FastifyBaseLogger
}

/**
 * One kind of work that falls due as time passes, declared once, beside its feature (its `due`, by
 * step: src/http/feature.ts), or beside what it serves (callback retries in src/callbacks/). The
 * list of them (src/app.ts, in DUE_STEPS order) is all the scheduler knows: its loop and the sandbox's clock moves walk
 * it in order, a request catches up the entries that have `catchUp`, and the due index is asked
 * about their queries. Adding a kind is adding an entry: its table module declares the query of
 * its rows' due times and notes each row it creates (src/store/engine/index.ts).
 *
 * `D` is what the entries are given to run with (src/deps.ts: JobDeps); the scheduler passes it on.
 */
export interface DueWork<D> extends Announces {
  /** For the log. */
  name: string
  // `announces`: the events its writes may append (store/events/log.ts), declared once here; its
  // writes pass the entry itself (`store.write(job, dueReviews)`), a catch-up lists every entry's.
  /** Where the due times of its items are read (declared by their table modules, which note each new one). */
  nextDue: readonly DueQuery[]
  /** The scheduler's tick: every app's due items at process time `now`, each app on its own clock. */
  run(deps: D, now: number): Promise<void>
  /**
   * It reads the request journal (the apps' last requests): the scheduler has the journal's
   * entries of every request answered before the tick committed first (store/events/requests.ts).
   */
  readsJournal?: boolean
  /**
   * One app's due items at its time `now`, inside the write job of a request's catch-up
   * (catch-up.ts): the state a request reads that time alone changes (a review's outcome, a
   * push's expiry or SMS fallback). What goes out as messages or callbacks (tasks, reports, review
   * results, retries) is the scheduler's alone: sent once, at its time, by the loop or a clock move.
   */
  catchUp?(deps: D, app: App, now: number): void
  /** What `run` started that outlives it (callbacks on the wire): a clock move and `stop` wait for it. */
  settled?(appKey?: string): Promise<void>
  /** Before the first tick: take up what the last process left half-done. */
  start?(deps: D): void
}

/**
 * The steps of a tick, in the order it runs them: each entry of the due-work list is declared under
 * its step (a feature's `due`, src/http/feature.ts), and one step's entries run in the order of the
 * features. What one moment's work reads of another's sets the order:
 * - `decide`: what time alone decides (a review's outcome), first, so that a task or a push's SMS
 *   fallback falling due at the same moment sends with what was approved;
 * - `fire`: what was set for a time goes out (SMS tasks, push schedules);
 * - `fanOut`: a wide push's deliveries written in slices;
 * - `arrive`: what the carrier answers arrives (SMS delivery reports), each owed its callback;
 * - `announce`: decisions owed a callback are put in the outbox (review results);
 * - `callBack`: the outbox is posted, with retries;
 * - `followUp`: a push's deliveries as time passes (expiry after time_to_live, SMS fallbacks);
 * - `expire`: idle auto-provisioned apps removed, last, with everything else of theirs done.
 */
export const DUE_STEPS = [
  'decide',
  'fire',
  'fanOut',
  'arrive',
  'announce',
  'callBack',
  'followUp',
  'expire',
] as const
export type DueStep = (typeof DUE_STEPS)[number]

/** Due work by the step of a tick it runs in. */
export type DueSteps<D> = Partial<Record<DueStep, readonly DueWork<D>[]>>

/** The due-work list in tick order: step by step, each step's entries in the order of `sources`. */
export const dueInTickOrder = <D>(sources: readonly { due?: DueSteps<D> }[]): DueWork<D>[] =>
  DUE_STEPS.flatMap(step => sources.flatMap(s => s.due?.[step] ?? []))

/** How many items an entry takes in one write job, by the entries that take them in batches. */
export const DUE_BATCH = 200
/** Rounds of batches per tick; whatever is left is picked up at once by the next tick. */
export const DUE_MAX_ROUNDS = 20

/** Every due query of the entries. */
export const queriesOf = <D>(work: readonly DueWork<D>[]): DueQuery[] => work.flatMap(w => w.nextDue)
