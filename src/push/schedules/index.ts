import type { Feature } from '../../http/feature.js'
import { duePushSchedules } from './due.js'
import { pushScheduleInspectRoutes } from './sandbox.js'
import { pushScheduleRoutes } from './schedules.js'
import { createPushScheduleStore } from './table.js'

// Push schedules, the Schedule API (jpush-api.md §8): its routes on the schedule host
// (schedules.ts, input.ts, rules.ts), their occurrences (occurrences.ts), their firing (fire.ts,
// due.ts), GET /_sandbox/push/schedules (sandbox.ts), and their table (table.ts).

export { readName, readPush, readTrigger, type TriggerSection, taskSections } from './input.js'
export { scheduleSubject } from './occurrences.js'
export { SCHEDULE_LIMITS, scheduleErrors } from './rules.js'
export { schemas as pushScheduleSchemas } from './sandbox.js'
export { createTask } from './schedules.js'

export const pushSchedules = {
  name: 'push/schedules',
  vendor: { schedule: [pushScheduleRoutes] },
  sandbox: [pushScheduleInspectRoutes],
  due: { fire: [duePushSchedules] },
  tables: engine => ({ pushSchedules: createPushScheduleStore(engine) }),
} satisfies Feature
