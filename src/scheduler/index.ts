import { createClockMover } from './advance.js'
import { createCatchUp } from './catch-up.js'
import { type DueWork, queriesOf, type SchedulerDeps } from './due-work.js'

export type { DueWork, SchedulerDeps } from './due-work.js'

/** Longest single sleep: a wall-clock jump is noticed within the hour even with no request. */
const MAX_SLEEP_MS = 3600_000
/**
 * Real time at least between two ticks the timer starts. Under a send load something falls due
 * every millisecond (each message's report arrives REPORT_DELAY_MS after it), and each tick reads
 * what is due across every app: ticking as often as that made the scheduler the largest cost of a
 * send (docs/performance.md). Spaced, a tick takes in what fell due meanwhile, at most this late
 * in real time. A clock move (POST /_sandbox/clock) ticks at once, whatever the spacing.
 */
const TICK_SPACING_MS = 20
/**
 * Real time between retries after a job failed: work that stays due because writes are refused
 * (a deleted database file, a full disk: store/engine/health.ts) must not spin the loop and flood the log.
 */
const RETRY_AFTER_FAILURE_MS = 1_000

/**
 * The in-process due-work loop over a list of due work (due-work.ts), given in the order a tick
 * runs it; it knows no kind by name. Everything it does is read from SQLite (pending tasks,
 * reports, reviews, callbacks), so it survives restarts and an overdue task fires right after
 * start. Idle, it costs one timer set for the earliest due item, known in memory
 * (store/engine/due.ts: told by the writes that create due work, asked of SQLite again only after
 * a tick or a clock move). It re-arms when that index hears of sooner work and when a manual clock
 * jumps, never per request: a request costs the scheduler nothing. `tick()` never overlaps itself;
 * `stop()` waits for the work in flight. `deps` is handed to each entry as it is.
 */
export function createScheduler<D extends SchedulerDeps>(deps: D, work: readonly DueWork<D>[]) {
  const { store, clock, log } = deps
  const queries = queriesOf(work)
  let state: 'idle' | 'running' | 'stopped' = 'idle'
  let timer: NodeJS.Timeout | undefined
  let current: Promise<void> | undefined
  let next: Promise<void> | undefined
  let armPending = false
  let failed = false
  let lastTickAt = Number.NEGATIVE_INFINITY

  /**
   * Every entry of the list whose time has come, in order, with what was due at one moment. An
   * entry whose bound (store/engine/due.ts: never later than its first item) is still ahead has
   * nothing due and is not run; one that ran has its bound asked again.
   */
  async function runOnce(): Promise<void> {
    failed = false
    lastTickAt = performance.now()
    const now = clock.now()
    for (const w of work) {
      try {
        const due = store.due.earliest(w.nextDue)
        if (due === undefined || due > now) continue
        if (w.readsJournal) await store.requests.settled()
        try {
          await w.run(deps, now)
        } finally {
          // What was due may be done now: the next arm asks SQLite what remains of it.
          store.due.ran(w.nextDue)
        }
      } catch (err) {
        failed = true
        store.health.observe(err)
        log.error({ err, job: w.name }, 'scheduler job failed')
      }
    }
  }

  /** Process time of the earliest due item of any app. */
  function nextDue(): number | undefined {
    return store.due.earliest(queries)
  }

  function arm(): void {
    if (state !== 'running') return
    clearTimeout(timer)
    timer = undefined
    let due: number | undefined
    try {
      due = nextDue()
    } catch (err) {
      // Runs from timers and after writes that create due work: a database that fails to answer (damaged
      // pages) must not become an uncaught exception. Look again a little later.
      store.health.observe(err)
      log.error({ err }, 'scheduler could not read what is due')
      failed = true
      due = clock.now()
    }
    if (due === undefined) return
    const soonest = failed ? RETRY_AFTER_FAILURE_MS : TICK_SPACING_MS - (performance.now() - lastTickAt)
    const delay = Math.min(Math.max(due - clock.now(), soonest), MAX_SLEEP_MS)
    timer = setTimeout(() => void tick(), delay)
    timer.unref()
  }

  function tick(): Promise<void> {
    if (state === 'stopped') return Promise.resolve()
    if (!current) {
      current = runOnce().finally(() => {
        current = undefined
        arm()
      })
      return current
    }
    // Called while a tick runs: one more run after it, shared by every caller meanwhile.
    next ??= current.then(() => {
      next = undefined
      return tick()
    })
    return next
  }

  const scheduler = {
    /** The due-work list it runs, in order (src/app.ts). */
    work,
    tick,
    /** The catch-up hook every API surface registers right after Basic auth (catch-up.ts). */
    catchUp: createCatchUp(deps, work, () => state === 'running'),
    /** For readiness: started and not stopped. */
    get running(): boolean {
      return state === 'running'
    },
    /** Runs the overdue work, then sleeps until the next due item. */
    async start(): Promise<void> {
      if (state !== 'idle') return
      state = 'running'
      for (const w of work) w.start?.(deps)
      await tick()
    },
    /**
     * Something may have become due sooner (the due index says so, a request answered, a clock
     * moved): look again. Cheap: the earliest due time is known in memory.
     */
    poke(): void {
      if (state !== 'running' || armPending) return
      armPending = true
      setImmediate(() => {
        armPending = false
        arm()
      })
    },
    /** Waits for the tick in flight and what the entries still have in flight (of one app, or all). */
    async settled(appKey?: string): Promise<void> {
      await next
      await current
      await Promise.all(work.map(w => w.settled?.(appKey)))
    },
    /** Moves one app's clock forward, running everything that falls due on the way, in order. */
    advance(appKey: string, target: number): Promise<void> {
      return mover(appKey, target)
    },
    async stop(): Promise<void> {
      if (state === 'stopped') return
      state = 'stopped'
      clearTimeout(timer)
      await next
      await current
      await Promise.all(work.map(w => w.settled?.()))
    },
  }
  // The timer is re-armed when due work may fall due sooner (the due index, told by the writes
  // that create it) or when a manual clock jumps; never per request.
  store.due.watch({ perApp: queriesOf(work.filter(w => w.catchUp)), sooner: scheduler.poke })
  clock.onMove?.(scheduler.poke)
  // This scheduler's clock moves, one per app at a time (advance.ts); each step runs its ticks.
  const mover = createClockMover({ store, clock, scheduler, queries })
  return scheduler
}

export type Scheduler = ReturnType<typeof createScheduler<SchedulerDeps>>
