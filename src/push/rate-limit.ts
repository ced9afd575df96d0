import type { FastifyInstance, FastifyRequest } from 'fastify'
import { appNow } from '../clock.js'
import { createFixedWindow, type WindowState } from '../limits/fixed-window.js'
import type { PushDeps } from './context.js'
import { groupOf, pushErrors } from './errors.js'
import { PUSH_LIMITS, rateLimitOf } from './limits.js'

declare module 'fastify' {
  interface FastifyRequest {
    pushRate?: WindowState
  }
}

/** The appKey a request claims, before it is authenticated: the real limiter counts per appKey. */
function claimedAppKey(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization
  const m = header && /^\s*Basic\s+(\S+)\s*$/i.exec(header)
  if (!m) return undefined
  const user = Buffer.from(m[1]!, 'base64').toString('utf8').split(':')[0]
  return user || undefined
}

/**
 * Every /v3 call counts toward its appKey's one-minute window for its group (push, device,
 * report; push-service.md §8), on the app's clock. Every answer, errors included, carries the
 * three X-Rate-Limit headers with the vendor's capitalisation (jpush-api.md §3); over the limit
 * the call is refused with 429 2002 before anything else is looked at.
 */
export function useRateLimit(app: FastifyInstance, deps: PushDeps): void {
  const window = createFixedWindow(PUSH_LIMITS.rateWindowMs)
  app.addHook('onRequest', async req => {
    const group = groupOf(req.url)
    const appKey = claimedAppKey(req)
    const tenantApp = appKey ? deps.store.apps.get(appKey) : undefined
    const now = tenantApp ? appNow(deps.clock, tenantApp) : deps.clock.now()
    const key = `${appKey === undefined ? `ip:${req.ip}` : `app:${appKey}`}|${group}`
    req.pushRate = window.hit(key, now, rateLimitOf(tenantApp, group))
    if (!req.pushRate.allowed) throw pushErrors.rateLimited()
  })
  app.addHook('onSend', async (req, reply) => {
    const rate = req.pushRate
    if (!rate) return
    reply.header('X-Rate-Limit-Limit', rate.limit)
    reply.header('X-Rate-Limit-Remaining', rate.remaining)
    reply.header('X-Rate-Limit-Reset', rate.resetSeconds)
  })
}
