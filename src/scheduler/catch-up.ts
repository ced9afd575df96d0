import type { FastifyReply, FastifyRequest } from 'fastify'
import { appNow } from '../clock.js'
import type { Tenant } from '../tenancy.js'
import type { DueWork, SchedulerDeps } from './due-work.js'

/**
 * "Time has passed" for one request: before its handler, the app's due work whose outcome requests
 * read (reviews decided, pushes expired or texted: the entries of the due-work list with a `catchUp`) is
 * run up to the app's now, in one write job, if the due index says any is due. So every handler,
 * reading or writing, sees the state the clock implies, and none settles anything on its own.
 *
 * Why catch up, rather than derive the state at read time (a review whose time has passed reads as
 * approved): some of this work is not a view of the data but an event with effects of its own. A
 * push fallback sends an SMS (charged, reported, rate-limited), the first approved signature
 * becomes the app's default (which a send then uses), and each decision owes a callback. Deriving
 * would need a second, read-time copy of each rule, and the stored state would still have to
 * catch up. Run once, in the write queue (durable before the handler goes on), it is the
 * scheduler's own work run a little earlier for this app; each item's state (under review,
 * pending, undecided) makes it run once, whoever gets there first.
 *
 * Cost: a comparison with the app's bound in memory (store/engine/due.ts); SQLite is asked only for
 * an app's first request and after a catch-up. The check is skipped once the scheduler stopped
 * (a stopped scheduler does nothing; the sandbox is closing). A catch-up that cannot be written
 * (the database refuses writes) fails the request: it cannot show what time implies.
 */
export function createCatchUp<D extends SchedulerDeps>(
  deps: D,
  work: readonly DueWork<D>[],
  running: () => boolean,
) {
  const { store, clock } = deps
  // The due index keeps, per app, the bound of these entries' queries (scheduler/index.ts: watch).
  const mine = work.filter(w => w.catchUp)
  // Its write job announces what the entries it runs announce.
  const declared = { announces: mine.flatMap(w => w.announces ?? []) }

  /**
   * A preHandler hook: register it right after Basic auth (it reads `req.tenant`). Callback-style:
   * nearly every request has nothing due and goes on at once, without a promise.
   */
  return function catchUp(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    const tenant = req.tenant as Tenant | undefined
    let due: number | undefined
    try {
      due = tenant && running() ? store.due.earliestOf(tenant.app.appKey) : undefined
    } catch (err) {
      done(err as Error)
      return
    }
    if (!tenant || due === undefined || due > tenant.now()) {
      done()
      return
    }
    const { appKey } = tenant.app
    store
      .write(declared, () => {
        const app = store.apps.get(appKey)
        if (!app) return
        const now = appNow(clock, app)
        for (const w of mine) w.catchUp?.(deps, app, now)
      })
      .then(() => {
        store.due.ranFor(appKey)
        done()
      }, done)
  }
}
