import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AppResets } from '../../app-resets.js'
import type { PipelineDeps } from '../../deps.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import { smsErrors } from '../errors.js'

// The pull APIs' limits (jsms-api.md §2.8, sms-service.md §6 and §8).
const PULL_LIMITS = {
  intervalMs: 5_000,
  maxRecords: 500,
  /** Reports are kept three days after the carrier's report arrived. */
  retentionMs: 3 * 24 * 3600_000,
} as const

const PULLS =
  'Each record once, at most 500 a call, at most one call per 5 s per appKey; an app with a ' +
  'callback URL gets its records there instead (50202).'
/** What a pull refuses: callbacks instead (50202), within five seconds of the last (50201). */
const pullChecks = [smsErrors.pullNotAllow(), smsErrors.pullOutOfFrequency()]

const reports = z.array(
  z.object({
    msgId: z.string(),
    phone: z.string(),
    receiveTime: z.int().describe('Epoch milliseconds, app clock.'),
    status: z.int().describe('4001 delivered; 4002–4010, 4100 failures (jsms-api.md §2.8).'),
  }),
)
const replies = z.array(z.object({ phone: z.string(), replyTime: z.int(), content: z.string() }))

/** GET /v1/report and GET /v1/reply: top-level arrays with camelCase fields, each record once. */
export function smsReportRoutes(deps: PipelineDeps & { appResets: AppResets }): RouteSpec[] {
  const { store } = deps
  // Last successful poll per endpoint and appKey, on the app's clock. Kept in memory: a restart
  // lets the next poll through at once, which no client can tell from a quiet five seconds.
  const lastPoll = new Map<string, number>()
  deps.appResets.onAppReset(appKey => {
    lastPoll.delete(`report ${appKey}`)
    lastPoll.delete(`reply ${appKey}`)
  })

  /** 50202 when the app takes callbacks instead, 50201 within five seconds of the last poll. */
  const admit = (req: FastifyRequest, endpoint: string): number => {
    const { app } = req.tenant
    if (app.callbackUrl !== null)
      throw smsErrors.pullNotAllow().because(`the app takes callbacks at ${app.callbackUrl}: pulling is off`)
    const now = req.tenant.now()
    const key = `${endpoint} ${app.appKey}`
    const last = lastPoll.get(key)
    if (last !== undefined && now - last < PULL_LIMITS.intervalMs)
      throw smsErrors
        .pullOutOfFrequency()
        .because(
          `the last ${endpoint} pull was ${now - last} ms ago: one per ${PULL_LIMITS.intervalMs / 1000} s`,
        )
    lastPoll.set(key, now)
    return now
  }

  return [
    vendorRoute({
      method: 'GET',
      url: '/report',
      summary: 'Pull delivery reports (jsms-api.md §2.8)',
      description: PULLS,
      checks: pullChecks,
      answer: reports,
      handler: async req => {
        const now = admit(req, 'report')
        const { appKey } = req.tenant.app
        const pulled = await store.write(() =>
          store.reports.pull(appKey, now, now - PULL_LIMITS.retentionMs, PULL_LIMITS.maxRecords),
        )
        return pulled.map(r => ({
          msgId: r.msgId,
          phone: r.mobile,
          receiveTime: r.reportAt,
          status: r.status,
        }))
      },
    }),
    vendorRoute({
      method: 'GET',
      url: '/reply',
      summary: 'Pull the replies handsets sent (jsms-api.md §2.8)',
      description: PULLS,
      checks: pullChecks,
      answer: replies,
      handler: async req => {
        const now = admit(req, 'reply')
        const { appKey } = req.tenant.app
        const pulled = await store.write(() =>
          store.replies.pull(appKey, now, now - PULL_LIMITS.retentionMs, PULL_LIMITS.maxRecords),
        )
        return pulled.map(r => ({ phone: r.mobile, replyTime: r.replyAt, content: r.content }))
      },
    }),
  ]
}
