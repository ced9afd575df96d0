import type { Feature } from '../../http/feature.js'
import { dueReports } from './due.js'
import { smsReportRoutes } from './reports.js'

// Delivery reports and replies pulled (jsms-api.md §2.8): what a message's report will say (status.ts), the vendor's
// pull routes (reports.ts), and their arrival REPORT_DELAY_MS after the message (due.ts). Their
// control-plane routes and rows are still in src/sandbox/sms and src/store/sms.

export * from './status.js'

export const smsReports = {
  name: 'sms/reports',
  vendor: { sms: [smsReportRoutes] },
  due: { arrive: [dueReports] },
} satisfies Feature
