import type { FastifyInstance } from 'fastify'
import type { AppResets } from '../../app-resets.js'
import type { ApiError } from '../../errors.js'
import { normalizePath, pathMatches } from '../../http/route-book.js'
import { routeConfig } from '../../http/route-config.js'
import { type FaultMatch, type Named, namedBy, names } from './match.js'

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
    /** Whether any fault is armed for the app (a map lookup, on every request). */
    armed(appKey: string): boolean {
      return byApp.has(appKey)
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

/** `fault #2 (POST /v1/messages, match mobile 13800138000)`: which armed fault decided. */
const describe = (f: Fault) => {
  const match =
    f.match &&
    ('mobile' in f.match ? `mobile ${f.match.mobile}` : `registration_id ${f.match.registration_id}`)
  return `fault #${f.id} (${f.method ?? 'any method'} ${f.path}${match ? `, match ${match}` : ''})`
}

/** A fault's error, saying which fault it is (the journal's and the log line's reason). */
const injected = (f: Fault) => f.error?.because(`${describe(f)} armed for this request`)

/**
 * Applies armed faults on one API surface: after authentication (the fault belongs to the
 * caller's app), before the handler. The error is thrown, so the surface renders it in its own
 * envelope with its own headers; a recipient's error is left with the request's tenant, for the
 * batch to refuse that recipient alone (sms/sending/messages.ts).
 */
export function useFaults(app: FastifyInstance, faults: Faults | undefined): void {
  if (!faults) return
  // Callback-style: a request of an app with no armed fault goes on at once, without a promise.
  app.addHook('preHandler', (req, _reply, done) => {
    if (!req.tenant || routeConfig(req)?.public || !faults.armed(req.tenant.app.appKey)) return done()
    let named: Named | undefined
    const { whole, recipients } = faults.take(req.tenant.app.appKey, {
      method: req.method,
      path: req.url,
      named: () => (named ??= namedBy(req)),
    })
    const failing = recipients.filter(f => f.error !== null)
    const tenant = req.tenant
    if (failing.length > 0)
      tenant.recipientFault = mobile => {
        const f = failing.find(f => f.match !== null && 'mobile' in f.match && f.match.mobile === mobile)
        return f ? injected(f) : undefined
      }
    const go = () => done(whole ? injected(whole) : undefined)
    const delaying = [whole, ...recipients].filter(f => f !== undefined && f.delayMs > 0) as Fault[]
    const delayMs = Math.max(0, ...delaying.map(f => f.delayMs))
    if (delayMs > 0) {
      req.log.info(
        { faults: delaying.map(f => f.id) },
        `${delaying.map(describe).join(', ')}: held ${delayMs} ms`,
      )
      setTimeout(go, delayMs)
    } else go()
  })
}
