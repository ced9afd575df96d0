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

/** A fault as GET /_sandbox/faults shows it (and `fault.changed` carries it). */
export const faultItem = (f: Fault) => ({
  id: f.id,
  method: f.method,
  path: f.path,
  match: f.match,
  code: f.error?.code ?? null,
  status: f.error?.status ?? null,
  message: f.error?.message ?? null,
  delay_ms: f.delayMs,
  remaining: f.remaining,
})

/** What `fault.changed` says: the fault (null when all were disarmed) and how many are left. */
export interface FaultChange {
  action: 'armed' | 'disarmed' | 'used'
  fault: ReturnType<typeof faultItem> | null
  faults: number
}

/**
 * Where a change of an app's faults is told (app.ts: the event log, as `fault.changed`); resolves
 * once that is durable. Faults live in memory: the event is their only trace in the database.
 */
export type FaultsChanged = (appKey: string, change: FaultChange) => Promise<void>

export function createFaults(appResets: AppResets, changed: FaultsChanged = async () => {}) {
  const byApp = new Map<string, Fault[]>()
  let nextId = 1
  const use = (appKey: string, fault: Fault) => {
    fault.remaining -= 1
    if (fault.remaining <= 0) {
      const left = (byApp.get(appKey) ?? []).filter(f => f !== fault)
      if (left.length > 0) byApp.set(appKey, left)
      else byApp.delete(appKey)
    }
    // Told after the request that used it goes on: nobody waits for this write.
    const told = { action: 'used' as const, fault: faultItem(fault), faults: byApp.get(appKey)?.length ?? 0 }
    changed(appKey, told).catch(() => {})
  }
  const faults = {
    /** Arms a fault; resolves once its `fault.changed` is durable. */
    async arm(appKey: string, fault: NewFault): Promise<Fault> {
      const armed = faults.restore(appKey, fault)
      await changed(appKey, { action: 'armed', fault: faultItem(armed), faults: faults.list(appKey).length })
      return armed
    },
    /**
     * Arms a fault without an event: an import (the document's events already say what its
     * faults went through, and the import is itself the change).
     */
    restore(appKey: string, fault: NewFault): Fault {
      const armed = { ...fault, path: fault.path === '*' ? '*' : normalizePath(fault.path), id: nextId++ }
      // Appended in place: arming n faults costs n, not n² (an import arms a document's at once).
      const list = byApp.get(appKey)
      if (list) list.push(armed)
      else byApp.set(appKey, [armed])
      return armed
    },
    list(appKey: string): Fault[] {
      return byApp.get(appKey) ?? []
    },
    /** The apps with a fault armed (the Admin API looks among its developer's). */
    armedApps(): string[] {
      return [...byApp.keys()]
    },
    /** Whether any fault is armed for the app (a map lookup, on every request). */
    armed(appKey: string): boolean {
      return byApp.has(appKey)
    },
    /** Disarms every fault of the app (none told when none was armed); returns how many. */
    async clear(appKey: string): Promise<number> {
      const n = byApp.get(appKey)?.length ?? 0
      byApp.delete(appKey)
      if (n > 0) await changed(appKey, { action: 'disarmed', fault: null, faults: 0 })
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
        // `*` is every path of the app's own surfaces: the Admin API is its developer's.
        if (f.path === '*' && req.path.startsWith('/admin/')) continue
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
  // A reset disarms them silently: its app.reset says that everything is as the seed made it.
  appResets.onAppReset(appKey => void byApp.delete(appKey))
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

/**
 * Applies armed faults on the Admin API (issue 29, point 12: its 10 and 1015 are answers no
 * request makes the sandbox give). Its requests carry a developer's devKey, not an app's: a fault
 * armed by an app on an `/admin/v1…` path answers the Admin API requests of that app's developer
 * — the app the path names first, else any of the developer's apps, oldest fault first.
 */
export function useAdminFaults(
  app: FastifyInstance,
  faults: Faults | undefined,
  developerOf: (appKey: string) => string | undefined,
): void {
  if (!faults) return
  app.addHook('preHandler', (req, _reply, done) => {
    const devKey = req.devKey
    if (devKey === undefined) return done()
    const named = (req.params as { app_key?: unknown } | undefined)?.app_key
    const mine = faults.armedApps().filter(appKey => developerOf(appKey) === devKey)
    if (mine.length === 0) return done()
    const order =
      typeof named === 'string' && mine.includes(named) ? [named, ...mine.filter(k => k !== named)] : mine
    const request = {
      method: req.method,
      path: req.url,
      named: () => ({ mobiles: [], batch: false, rids: [] }),
    }
    for (const appKey of order) {
      const { whole } = faults.take(appKey, request)
      if (!whole) continue
      const go = () => done(whole.error ? injected(whole) : undefined)
      if (whole.delayMs > 0) setTimeout(go, whole.delayMs)
      else go()
      return
    }
    done()
  })
}
