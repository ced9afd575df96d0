import { z } from 'zod'
import { invalidField, sandboxErrors } from '../../control/errors.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import type { Store } from '../../store/index.js'
import { iso, isoOrNull } from '../../time.js'
import { isPlanName } from '../send/index.js'
import { insertPlan, PLAN_LIMITS } from './plans.js'
import type { PushPlan } from './table.js'

// Push plans as the vendor's console makes them (send_source 1, "web"; docs/jpush-wire.md "Push
// plans"), and every plan with the pushes counted under it.

const plan = z.object({
  name: z.string(),
  description: z.string(),
  send_source: z
    .int()
    .describe('0: POST /v3/push_plan/create; 1: the console (here: seed file, control plane).'),
  push_count: z.int(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
})

const view = (p: PushPlan): z.input<typeof plan> => ({
  name: p.name,
  description: p.description,
  send_source: p.sendSource,
  push_count: p.pushCount,
  created_at: iso(p.createdAt),
  last_used_at: isoOrNull(p.lastUsedAt),
})

const nameParams = z.object({ name: z.string() })

export function pushPlanRoutes(deps: { store: Store }): RouteSpec[] {
  const { store } = deps
  return [
    schemaRoute({
      method: 'GET',
      url: '/push/plans',
      docs: {
        summary: "The app's push plans and the pushes counted under each",
        description:
          'The plans made with `POST /v3/push_plan/create` (send_source 0) or here (send_source 1, as the console makes them), with when each was last named by a push (`options.business_operation_code`).',
      },
      schema: { response: { 200: z.object({ plans: z.array(plan) }) } },
      handler: async req => ({
        plans: store.pushPlans.page(req.tenant.app.appKey, {}, 1, PLAN_LIMITS.perApp).plans.map(view),
      }),
    }),
    schemaRoute({
      method: 'PUT',
      url: '/push/plans/:name',
      docs: {
        summary: 'Make a push plan as the console does (send_source 1), or describe it anew',
        description: `The name is letters, digits and \`_\`, not starting with \`_\`, at most 50; an app has at most ${PLAN_LIMITS.perApp} plans (docs/jpush-wire.md "Push plans").`,
      },
      schema: {
        params: nameParams,
        body: z.object({ description: z.string().max(PLAN_LIMITS.descriptionChars) }).strict(),
        response: { 200: plan },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const { name } = req.params
        if (!isPlanName(name))
          throw invalidField('name', 'letters, digits and _, not starting with _, at most 50')
        const now = req.tenant.now()
        const made = await store.write(() => {
          if (!store.pushPlans.describe(appKey, name, req.body.description)) {
            insertPlan(
              store,
              { appKey, name, description: req.body.description, sendSource: 1, createdAt: now },
              message => invalidField('name', message),
            )
          }
          return store.pushPlans.get(appKey, name)!
        })
        return view(made)
      },
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/push/plans/:name',
      docs: {
        summary: 'Remove a push plan',
        description:
          'Pushes already counted under it keep their statistics; 404 90047 for a plan the app does not have.',
        errors: [sandboxErrors.unknownPushPlan()],
      },
      schema: {
        params: nameParams,
        response: { 200: z.object({ name: z.string(), deleted: z.literal(true) }) },
      },
      handler: async req => {
        const { appKey } = req.tenant.app
        const gone = await store.write(() => store.pushPlans.remove(appKey, req.params.name))
        if (!gone) throw sandboxErrors.unknownPushPlan()
        return { name: req.params.name, deleted: true as const }
      },
    }),
  ]
}
