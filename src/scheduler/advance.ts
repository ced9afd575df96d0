import { appNow, type Clock } from '../clock.js'
import type { DueQuery } from '../store/engine/index.js'
import type { Store } from '../store/index.js'

interface AdvanceDeps {
  store: Store
  clock: Clock
  scheduler: { tick(): Promise<void>; settled(appKey?: string): Promise<void>; poke(): void }
  /** The due queries of the scheduler's list (due-work.ts): the steps stop at each of their items. */
  queries: readonly DueQuery[]
}

/** Safety net against a due item that no tick can clear. */
const MAX_STEPS = 100_000

/**
 * `advance(appKey, target)` moves the app's clock to `target` (app time, never backwards: the
 * caller checks) by stepping it from one due item to the next, running each step's work (tasks,
 * reports, reviews, callback retries, with their HTTP attempts awaited) before the next, so
 * everything happens in order and at its own time, as if the time had really passed. Resolves when
 * all of it has run. One move per app at a time: a second waits for the first to finish (the moves
 * under way are the scheduler's, which makes one of these: scheduler/index.ts).
 */
export function createClockMover(deps: AdvanceDeps) {
  const moving = new Map<string, Promise<void>>()
  return function advance(appKey: string, target: number): Promise<void> {
    const previous = moving.get(appKey) ?? Promise.resolve()
    const run = previous.then(() => step(deps, appKey, target))
    const tracked = run.finally(() => {
      if (moving.get(appKey) === tracked) moving.delete(appKey)
    })
    moving.set(
      appKey,
      tracked.catch(() => {}),
    )
    return run
  }
}

async function step(
  { store, clock, scheduler, queries }: AdvanceDeps,
  appKey: string,
  target: number,
): Promise<void> {
  const setAppTime = (t: number) => store.apps.setClockOffset(appKey, t - clock.now())
  const nowOfApp = () => {
    const app = store.apps.get(appKey)
    if (!app) throw new Error(`unknown app ${appKey}`)
    return appNow(clock, app)
  }
  let lastOverdue: number | undefined
  for (let i = 0; i < MAX_STEPS; i++) {
    const now = nowOfApp()
    const due = store.due.nextOf(queries, appKey)
    if (due === undefined || due > target) break
    if (due > now) setAppTime(due)
    else if (due === lastOverdue)
      break // already overdue and a tick did not clear it
    else lastOverdue = due
    await scheduler.tick()
    await scheduler.settled(appKey)
  }
  // The answer promises the clock stands at `target`: that offset is made durable (the steps on
  // the way need not be: a crash mid-move leaves the clock where the last committed work put it).
  store.transaction(() => {
    if (target > nowOfApp()) setAppTime(target)
  })
  await scheduler.tick()
  await scheduler.settled(appKey)
  scheduler.poke()
}
