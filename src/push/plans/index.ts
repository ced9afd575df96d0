import type { Feature } from '../../http/feature.js'
import { planRoutes } from './plans.js'
import { pushPlanRoutes } from './sandbox.js'
import { createPushPlanStore } from './table.js'

// Push plans (docs/jpush-wire.md "Push plans"): the vendor's /v3/push_plan routes (plans.ts), the
// console's (sandbox.ts: /_sandbox/push/plans), and their table (table.ts). The plan limit is
// checked in one place, insertPlan, for both.

export { PLAN_LIMITS } from './plans.js'
export type { PushPlan } from './table.js'

export const pushPlans = {
  name: 'push/plans',
  vendor: { push: [planRoutes] },
  sandbox: [pushPlanRoutes],
  tables: engine => ({ pushPlans: createPushPlanStore(engine) }),
} satisfies Feature
