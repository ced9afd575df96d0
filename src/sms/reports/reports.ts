import type { FastifyRequest } from 'fastify'
import type { AppDeps } from '../../deps.js'
import type { RouteSpec } from '../../http/routes.js'
import { smsErrors } from '../errors.js'
import { replyDocs, reportDocs } from '../schedules/docs.js'

// The pull APIs' limits (jsms-api.md §2.8, sms-service.md §6 and §8).
const PULL_LIMITS = {
  intervalMs: 5_000,
  maxRecords: 500,
  /** Reports are kept three days after the carrier's report arrived. */
  retentionMs: 3 * 24 * 3600_000,
} as const

/** GET /v1/report and GET /v1/reply: top-level arrays with camelCase fields, each record once. */
export function smsReportRoutes(deps: AppDeps): RouteSpec[] {
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
    if (app.callbackUrl !== null) throw smsErrors.pullNotAllow()
    const now = req.tenant.now()
    const key = `${endpoint} ${app.appKey}`
    const last = lastPoll.get(key)
    if (last !== undefined && now - last < PULL_LIMITS.intervalMs) throw smsErrors.pullOutOfFrequency()
    lastPoll.set(key, now)
    return now
  }

  return [
    {
      method: 'GET',
      url: '/report',
      docs: reportDocs,
      handler: async req => {
        const now = admit(req, 'report')
        const { appKey } = req.tenant.app
        const reports = await store.write(() =>
          store.reports.pull(appKey, now, now - PULL_LIMITS.retentionMs, PULL_LIMITS.maxRecords),
        )
        return reports.map(r => ({
          msgId: r.msgId,
          phone: r.mobile,
          receiveTime: r.reportAt,
          status: r.status,
        }))
      },
    },
    {
      method: 'GET',
      url: '/reply',
      docs: replyDocs,
      handler: async req => {
        const now = admit(req, 'reply')
        const { appKey } = req.tenant.app
        const replies = await store.write(() =>
          store.replies.pull(appKey, now, now - PULL_LIMITS.retentionMs, PULL_LIMITS.maxRecords),
        )
        return replies.map(r => ({ phone: r.mobile, replyTime: r.replyAt, content: r.content }))
      },
    },
  ]
}
