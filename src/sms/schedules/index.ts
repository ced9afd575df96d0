import type { Feature } from '../../http/feature.js'
import { dueSchedules } from './due.js'
import { smsScheduleInspectRoutes } from './sandbox.js'
import { scheduleRoutes } from './schedules.js'
import { createScheduleStore } from './table.js'

// SMS tasks (jsms-api.md §2.6): the vendor's /v1/schedule routes (schedules.ts), GET
// /_sandbox/sms/schedules (sandbox.ts), and their firing at send_time (fire.ts, due.ts). Their
// table: the tasks and their recipients (table.ts), and the ids of the tasks a list's filters find.

export { fireSchedule } from './fire.js'
export { schemas as smsScheduleSchemas } from './sandbox.js'

export const smsSchedules = {
  name: 'sms/schedules',
  vendor: { sms: [scheduleRoutes] },
  sandbox: [smsScheduleInspectRoutes],
  due: { fire: [dueSchedules] },
  tables: engine => ({ schedules: createScheduleStore(engine) }),
} satisfies Feature
