import type { Feature } from '../../http/feature.js'
import { dueReports } from './due.js'
import { reportSource } from './items.js'
import { replyRoutes } from './replies.js'
import { createReplyStore } from './replies-table.js'
import { smsReportRoutes } from './reports.js'
import { createReportStore } from './reports-table.js'
import { smsReportListRoutes, smsReportSteeringRoutes } from './sandbox.js'
import { createUnsubscribedStore } from './unsubscribed-table.js'

// What comes back from the carrier (jsms-api.md §2.8): delivery reports and handsets' replies. What
// a message's report will say (status.ts), the vendor's pull routes of both (reports.ts), and the
// reports' arrival REPORT_DELAY_MS after the message (due.ts); on the control plane, the reports
// that arrived and a report's status chosen by a test (sandbox.ts), a handset's reply played and
// the replies listed (replies.ts), as their items (items.ts), which the event stream carries too.
// Their tables: reports (reports-table.ts: due at report_at, REPORTS_DUE), replies
// (replies-table.ts) and the mobiles a reply unsubscribed (unsubscribed-table.ts).

export { replyItem, reportItem, reportItems } from './items.js'
export { schemas as replySchemas } from './replies.js'
export * from './status.js'

export const smsReports = {
  name: 'sms/reports',
  vendor: { sms: [smsReportRoutes] },
  sandbox: [smsReportListRoutes, smsReportSteeringRoutes, replyRoutes],
  due: { arrive: [dueReports] },
  tables: engine => ({
    reports: createReportStore(engine),
    replies: createReplyStore(engine),
    unsubscribed: createUnsubscribedStore(engine),
  }),
  stream: store => [reportSource(store)],
} satisfies Feature
