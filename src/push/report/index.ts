import type { Feature } from '../../http/feature.js'
import { groupReportRoutes } from './group.js'
import { pushReportRoutes } from './report.js'
import { createPushActivityStore } from './table.js'
import { pushUserRoutes } from './users.js'

// The report host (jpush-api.md §1.1, §6): received and status reports (report.ts), user
// statistics (users.ts) over what the devices did (table.ts), group reports (group.ts), counted
// from the deliveries (counts.ts).

export const pushReport = {
  name: 'push/report',
  vendor: { report: [pushReportRoutes, pushUserRoutes, groupReportRoutes] },
  tables: engine => ({ pushActivity: createPushActivityStore(engine) }),
} satisfies Feature
