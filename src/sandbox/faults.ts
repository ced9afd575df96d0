import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyInstance } from 'fastify'
import type { ApiError } from '../errors.js'

/**
 * Armed failures, per app: the next `times` requests of that app matching `method` and `path`
 * are answered with the vendor error `code` (before their handler runs, so nothing is stored or
 * charged), and/or held for `delayMs` of real time first. Kept in memory: a restart disarms them.
 */
export interface Fault {
  id: number
  method: string | null
  /** A concrete path (`/v1/codes`) or a route pattern (`/v1/codes/:msg_id/valid`); `*` is any. */
  path: string
  error: ApiError | null
  delayMs: number
  remaining: number
}

export type NewFault = Omit<Fault, 'id'>

export function createFaults() {
  const byApp = new Map<string, Fault[]>()
  let nextId = 1
  return {
    arm(appKey: string, fault: NewFault): Fault {
      const armed = { ...fault, id: nextId++ }
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
    /** The first armed fault this request matches, used up by one. */
    take(appKey: string, method: string, route: string, path: string): Fault | undefined {
      const faults = byApp.get(appKey)
      if (!faults) return undefined
      const hit = faults.find(
        f =>
          (f.method === null || f.method === method) &&
          (f.path === '*' || f.path === route || f.path === path),
      )
      if (!hit) return undefined
      hit.remaining -= 1
      if (hit.remaining <= 0) {
        const left = faults.filter(f => f !== hit)
        if (left.length > 0) byApp.set(appKey, left)
        else byApp.delete(appKey)
      }
      return hit
    },
  }
}

export type Faults = ReturnType<typeof createFaults>

const normalize = (url: string) => (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')

/**
 * Applies armed faults on one API surface: after authentication (the fault belongs to the
 * caller's app), before the handler. The error is thrown, so the surface renders it in its own
 * envelope with its own headers.
 */
export function useFaults(app: FastifyInstance, faults: Faults | undefined): void {
  if (!faults) return
  app.addHook('preHandler', async req => {
    if (!req.tenant || req.routeOptions.config?.public) return
    const fault = faults.take(
      req.tenant.app.appKey,
      req.method,
      req.routeOptions.url ?? '',
      normalize(req.url),
    )
    if (!fault) return
    if (fault.delayMs > 0) await sleep(fault.delayMs)
    if (fault.error) throw fault.error
  })
}
