import type { AppDeps } from '../deps.js'
import type { RouteSpec } from '../http/routes.js'
import { items } from './items.js'
import { listRoute } from './list-route.js'
import { reportItem } from './views.js'

/**
 * The delivery reports that arrived (each at its receive time, REPORT_DELAY_MS after its message:
 * the sms.report event), whether or not GET /v1/report handed them out.
 */
export function smsReportRoutes(deps: Pick<AppDeps, 'store' | 'hub'>): RouteSpec[] {
  const { store } = deps
  return [
    listRoute(deps, {
      url: '/sms/reports',
      key: 'reports',
      filters: ['mobile', 'msg_id'],
      item: items.report,
      topic: 'reports',
      read: (appKey, q) => store.reports.list(appKey, { ...q, msgId: q.msg_id }).map(reportItem),
    }),
  ]
}
