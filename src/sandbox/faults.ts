import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import type { AppResets } from '../app-resets.js'
import type { ApiError } from '../errors.js'
import { normalizePath, pathMatches } from '../http/route-book.js'
import { type FaultMatch, type Named, namedBy, names } from './fault-match.js'

/**
 * Armed failures, per app: the next `times` requests of that app matching `method`, `path` and
 * `match` are answered with the vendor error `code` (before their handler runs, so nothing is
 * stored or charged), and/or held for `delayMs` of real time first. Kept in memory: a restart
 * disarms them, and so does a reset of the app.
 */
export interface Fault {
  id: number
  method: string | null
  /** A concrete path (`/v1/codes`) or a route pattern (`/v1/codes/:msg_id/valid`); `*` is any. */
  path: string
  /** Only requests naming this recipient (fault-match.ts); null: every request. */
  match: FaultMatch | null
  error: ApiError | null
  delayMs: number
  remaining: number
}

export type NewFault = Omit<Fault, 'id'>

/** What a request is, as faults see it. */
export interface FaultRequest {
  method: string
  path: string
  named: () => Named
}

/**
 * The faults a request sets off: one that fails it whole, or else those that fail some recipients
 * of a batch (a `match.mobile` against a `recipients` list). Each is used up by one.
 */
export interface Triggered {
  whole?: Fault
  recipients: Fault[]
}

export function createFaults(appResets: AppResets) {
  const byApp = new Map<string, Fault[]>()
  let nextId = 1
  const use = (appKey: string, fault: Fault) => {
    fault.remaining -= 1
    if (fault.remaining > 0) return
    const left = (byApp.get(appKey) ?? []).filter(f => f !== fault)
    if (left.length > 0) byApp.set(appKey, left)
    else byApp.delete(appKey)
  }
  const faults = {
    arm(appKey: string, fault: NewFault): Fault {
      const armed = { ...fault, path: fault.path === '*' ? '*' : normalizePath(fault.path), id: nextId++ }
      byApp.set(appKey, [...(byApp.get(appKey) ?? []), armed])
      return armed
    },
    list(appKey: string): Fault[] {
      return byApp.get(appKey) ?? []
    },
    clear(appKey: string): number {
      const n = byApp.get(appKey)?.length ?? 0
      byApp.delete(appKey)
      return n
    },
    /** The first armed fault that fails this request whole, or every one that fails a recipient. */
    take(appKey: string, req: FaultRequest): Triggered {
      const armed = byApp.get(appKey)
      if (!armed) return { recipients: [] }
      const recipients: Fault[] = []
      for (const f of armed) {
        if (f.method !== null && f.method !== req.method) continue
        if (f.path !== '*' && !pathMatches(f.path, req.path)) continue
        if (f.match !== null && !names(req.named(), f.match)) continue
        if (f.match !== null && 'mobile' in f.match && req.named().batch) {
          recipients.push(f)
          continue
        }
        use(appKey, f)
        return { whole: f, recipients: [] }
      }
      for (const f of recipients) use(appKey, f)
      return { recipients }
    },
  }
  appResets.onAppReset(appKey => faults.clear(appKey))
  return faults
}

export type Faults = ReturnType<typeof createFaults>

/**
 * Applies armed faults on one API surface: after authentication (the fault belongs to the
 * caller's app), before the handler. The error is thrown, so the surface renders it in its own
 * envelope with its own headers; a recipient's error is left with the request's tenant, for the
 * batch to refuse that recipient alone (sms/batch.ts).
 */
export function useFaults(app: FastifyInstance, faults: Faults | undefined): void {
  if (!faults) return
  app.addHook('preHandler', async req => {
    if (!req.tenant || req.routeOptions.config?.public) return
    let named: Named | undefined
    const { whole, recipients } = faults.take(req.tenant.app.appKey, {
      method: req.method,
      path: req.url,
      named: () => (named ??= namedBy(req)),
    })
    const delayMs = Math.max(whole?.delayMs ?? 0, ...recipients.map(f => f.delayMs))
    if (delayMs > 0) await sleep(delayMs)
    if (whole?.error) throw whole.error
    const failing = recipients.filter(f => f.error !== null)
    if (failing.length === 0) return
    req.tenant.recipientFault = mobile =>
      failing.find(f => f.match !== null && 'mobile' in f.match && f.match.mobile === mobile)?.error ??
      undefined
  })
}
