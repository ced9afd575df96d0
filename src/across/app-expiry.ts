import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import type { SchedulerDeps } from '../scheduler/due-work.js'
import type { DueWork } from '../scheduler/index.js'
import { originOf, type ReprovisionDeps, reprovision } from '../seed/reprovision.js'

/** Apps looked at per write job: a flood of expired apps never holds the event loop long. */
const BATCH = 100

/**
 * Idle auto-provisioned apps expire (issue 33): an app made by its first request, with nothing
 * asked of it for AUTO_PROVISION_IDLE_MS, is removed as `DELETE /_sandbox/app` removes it (every
 * row, its own developer, what memory holds of it; its next request with well-formed credentials
 * makes it afresh). Without that, apps never went, and a few addresses filled
 * AUTO_PROVISION_MAX_APPS for everyone. The default app, a seed file's and those the Admin API made
 * never expire.
 *
 * Idle means: no request authenticated as the app (any surface, reads of the control plane
 * included), and no event stream or `wait=` of it open. No request writes anything for it: the app's
 * row says since when it may be idle (`idle_since`, migration 021: its creation, or what this job
 * last saw), the due index wakes the job when that plus the idle time has passed, and the job then
 * looks at what it knows now: the journal's last request of the app (real time, the process's
 * time outside tests), the last request this process answered for it (in memory), its listeners.
 * An app found in use is looked at again one idle time after that use; an idle one is removed.
 * Requests the journal does not keep (control-plane reads) are known only to the process that
 * answered them: after a restart the app is judged by its journal and its last look.
 */
export function createIdleApps(
  deps: ReprovisionDeps & {
    clock: Clock
    idleMs: number
    /** Whether the app has a stream or a wait open (events/hub.ts). */
    listened(appKey: string): boolean
    /** Told after the removal is durable: its held requests answered, its streams ended. */
    removed(appKey: string): void
  },
) {
  const { store, clock, idleMs } = deps
  /** Process time of the last request answered for each app, since the start. */
  const seen = new Map<string, number>()
  deps.appResets.onAppReset(appKey => seen.delete(appKey))

  /** The removals and postponements of one batch, inside its write job; whether more may be due. */
  function batch(now: number, removed: string[]): boolean {
    const cutoff = now - idleMs
    const due = store.activity.idleBefore(cutoff, BATCH)
    for (const d of due) {
      const app = store.apps.get(d.appKey)
      // A seed file's now, or made otherwise: never expires.
      if (!app || originOf(deps.seed, app) !== 'auto') {
        store.activity.expiresWhenIdle(d.appKey, null)
        continue
      }
      const used = Math.max(
        d.idleSince,
        d.lastRequestAt ?? 0,
        seen.get(d.appKey) ?? 0,
        deps.listened(d.appKey) ? now : 0,
      )
      if (used > cutoff) {
        store.activity.expiresWhenIdle(d.appKey, used)
        continue
      }
      reprovision(deps, app, now, { remove: true })
      removed.push(d.appKey)
    }
    return due.length === BATCH
  }

  const work: DueWork<SchedulerDeps> = {
    name: 'idle apps',
    nextDue: store.activity.idleDue ? [store.activity.idleDue] : [],
    // The journal's entries answered before (their apps' last requests) are in SQLite first.
    readsJournal: true,
    async run({ log }, now) {
      for (let more = true; more; ) {
        const removed: string[] = []
        more = await store.write(() => batch(now, removed))
        for (const appKey of removed) deps.removed(appKey)
        if (removed.length > 0)
          log.info(
            { apps: removed, idleMs },
            `${removed.length} auto-provisioned apps removed, idle for ${idleMs} ms (AUTO_PROVISION_IDLE_MS)`,
          )
      }
    },
  }

  return {
    /** The due work that removes them (none with AUTO_PROVISION_IDLE_MS 0). */
    work: idleMs > 0 ? [work] : [],
    /** Fastify's onResponse hook: a request answered for an app is activity of it. */
    answered(req: FastifyRequest, _reply: FastifyReply, done: () => void): void {
      const appKey = req.tenant?.app.appKey
      if (appKey !== undefined) seen.set(appKey, clock.now())
      done()
    },
  }
}
