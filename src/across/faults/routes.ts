import { z } from 'zod'
import { sandboxErrors } from '../../control/errors.js'
import type { RouteBook } from '../../http/route-book.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { type Faults, faultItem } from './faults.js'
import { FAULT_LIMITS, faultSchema, toFault } from './input.js'

export const armed = z.object({
  id: z.number(),
  method: z.string().nullable(),
  path: z.string(),
  match: z.object({ mobile: z.string().optional(), registration_id: z.string().optional() }).nullable(),
  code: z.number().nullable(),
  status: z.number().nullable(),
  message: z.string().nullable(),
  delay_ms: z.number(),
  remaining: z.number(),
})

/** Fault injection for the calling app: arm, list, disarm (faults.ts applies them). */
export function faultRoutes({ faults, routeBook }: { faults: Faults; routeBook: RouteBook }): RouteSpec[] {
  return [
    schemaRoute({
      method: 'POST',
      url: '/faults',
      docs: {
        summary: 'Arm a fault: the next matching /v1 or /v3 requests fail with a vendor error, or wait',
        description: `The next \`times\` (1) requests of the app matching \`method\`, \`path\` (a path, a route pattern, or \`*\`)
and \`match\` (one recipient: \`{"mobile"}\` or \`{"registration_id"}\`) are answered with the vendor error \`code\`
(its documented status and message unless given) before their handler runs, and/or held \`delay_ms\` first.
Kept in memory; a reset or a restart disarms them. The request journal names the fault that decided.
A fault on an \`/admin/v1…\` path (the Admin API, admin.jpush.cn) answers the Admin API requests of the app's
developer (its 10, 1015…); \`*\` never reaches the Admin API.
A fault that could never fire is refused, naming why.`,
        errors: [
          sandboxErrors.invalidField('"path": no route serves /v1/nothing'),
          sandboxErrors.tooManyFaults(
            'at most 100 faults may be armed at once: DELETE /_sandbox/faults first',
          ),
        ],
      },
      schema: { body: faultSchema, response: { 200: armed } },
      handler: async req => {
        const fault = toFault(req.body, routeBook)
        const { appKey } = req.tenant.app
        // Faults live in memory, per app: bounded so that no tenant can grow the process (or a listing).
        if (faults.list(appKey).length >= FAULT_LIMITS.perApp)
          throw sandboxErrors.tooManyFaults(
            `at most ${FAULT_LIMITS.perApp} faults may be armed at once: DELETE /_sandbox/faults first`,
          )
        return faultItem(await faults.arm(appKey, fault))
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/faults',
      docs: {
        summary: "The app's armed faults",
        description:
          'Each with its id (the one the journal names) and how many requests it still fails (`remaining`).',
      },
      schema: { response: { 200: z.object({ faults: z.array(armed) }) } },
      handler: async req => ({ faults: faults.list(req.tenant.app.appKey).map(faultItem) }),
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/faults',
      docs: {
        summary: 'Disarm every fault of the app',
        description: 'Answers how many were armed (`cleared`).',
      },
      schema: { response: { 200: z.object({ cleared: z.number() }) } },
      handler: async req => ({ cleared: await faults.clear(req.tenant.app.appKey) }),
    }),
  ]
}
