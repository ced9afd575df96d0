import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { AppResets } from '../app-resets.js'
import type { Clock } from '../clock.js'
import type { AuthHooks } from '../http/auth/auth.js'
import { toApiError } from '../http/error-handler.js'
import { routeConfig } from '../http/route-config.js'
import { createFixedWindow, type WindowState } from '../limits/fixed-window.js'
import { groupOf, pushDialects } from './dialect.js'
import { pushErrors } from './errors.js'
import { PUSH_LIMITS, rateLimitOf } from './limits.js'

// The vendor's capitalisation, byte for byte: old PHP clients index the headers case-sensitively
// (jpush-api.md §3, php#18).
const HEADERS = ['X-Rate-Limit-Limit', 'X-Rate-Limit-Remaining', 'X-Rate-Limit-Reset'] as const

/**
 * The per-minute windows of /v3 (push-service.md §8), one per group (push, device, report).
 * An authenticated call counts against its app's window, on the app's clock: only someone who
 * holds an app's secret can use up its calls. A call that does not authenticate (no or wrong
 * credentials, an unknown path, a wrong method) counts against its client address's window, with
 * the group's default limit, on the process clock; so a flood of wrong secrets aimed at an appKey
 * slows the flooder's address down and never its victim. Over either limit: 429 2002, and a
 * correct secret is never refused for its address's failures. Every answer, errors included,
 * carries the three X-Rate-Limit headers of the window it counted in.
 */
/** 429 2002, saying whose window, its limit and when it opens again (push-service.md §8). */
function overLimit(rate: WindowState, whose: string, group: string) {
  return pushErrors
    .rateLimited()
    .because(
      `${whose} is over ${rate.limit} ${group} calls a minute (settings.rate_limits.${group}); ` +
        `the window resets in ${rate.resetSeconds} s`,
    )
}

export function usePushRateLimit(
  app: FastifyInstance,
  deps: { clock: Clock; appResets: AppResets },
): AuthHooks {
  const window = createFixedWindow(PUSH_LIMITS.rateWindowMs)
  // Read once: making an ApiError captures a stack, which cost every /v3 answer ≈ 20 µs here.
  const RATE_LIMITED = pushErrors.rateLimited().code
  const groups = Object.keys(PUSH_LIMITS.ratePerMinute)
  deps.appResets.onAppReset(appKey => {
    for (const group of groups) window.forget(`app:${appKey}|${group}`)
  })

  function countAddress(req: FastifyRequest): WindowState {
    const group = groupOf(req.url)
    req.pushRate = window.hit(`ip:${req.ip}|${group}`, deps.clock.now(), rateLimitOf(undefined, group))
    return req.pushRate
  }

  // Callback-style hooks: they run for every /v3 request.
  // Routes that take no credentials (unknown paths, wrong methods): no authentication counts them.
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.is404 && !routeConfig(req)?.public) return done()
    const rate = countAddress(req)
    done(rate.allowed ? undefined : overLimit(rate, `${req.ip} (calls that name no app)`, groupOf(req.url)))
  })
  app.addHook('onSend', (req, reply, payload, done) => {
    const rate = req.pushRate
    if (rate) {
      // reply.header() lower-cases names; the raw response keeps them as set, and Fastify's
      // writeHead merges its own headers into these.
      reply.raw.setHeader(HEADERS[0], String(rate.limit))
      // A 2002 the window did not decide (an armed fault) still says what a real one says: no call
      // left until the window resets, so a client's back-off is what the fault tests.
      const exhausted = req.refusal?.code === RATE_LIMITED
      reply.raw.setHeader(HEADERS[1], String(exhausted ? 0 : rate.remaining))
      reply.raw.setHeader(HEADERS[2], String(rate.resetSeconds))
    }
    done(null, payload)
  })

  return {
    authenticated(req, tenant) {
      const group = groupOf(req.url)
      const { app: own } = tenant
      req.pushRate = window.hit(`app:${own.appKey}|${group}`, tenant.now(), rateLimitOf(own, group))
      if (!req.pushRate.allowed) throw overLimit(req.pushRate, `app ${own.appKey}`, group)
    },
    refused(req, err) {
      const rate = countAddress(req)
      // A failure of the sandbox itself stays a server error, whatever the address has done.
      const serverError = toApiError(err, pushDialects[groupOf(req.url)]).status >= 500
      return rate.allowed || serverError
        ? err
        : overLimit(rate, `${req.ip} (calls refused for their credentials)`, groupOf(req.url))
    },
  }
}
