import { z } from 'zod'
import type { AppResets } from '../../app-resets.js'
import type { Courier } from '../../callbacks/courier.js'
import type { Clock } from '../../clock.js'
import type { Config } from '../../config.js'
import { sandboxErrors } from '../../control/errors.js'
import type { Hub } from '../../events/hub.js'
import type { AppGate } from '../../http/app-gate.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { reprovision } from '../../seed/reprovision.js'
import type { SeedFile } from '../../seed/seed-file.js'
import type { Store } from '../../store/index.js'
import { applyPatch, patchBody } from './patch.js'
import { appEventData, appView, describeApp, storageCounter, storageView } from './view.js'

const removed = z.object({ app_key: z.string(), deleted: z.literal(true), recreated: z.boolean() })

type Deps = {
  store: Store
  clock: Clock
  config: Config
  courier: Courier
  seed: SeedFile
  appResets: AppResets
  appGate: AppGate
  hub: Hub
}

/**
 * The calling app itself: its settings at runtime (read, PATCH), its reset to the state of its
 * first use, its removal. Each answers once the change is durable; the next request of any
 * surface sees it (the writing statements forget the cached rows, app-resets.ts the rest).
 * Events: app.changed (PATCH), app.reset (a reset, or a removal that makes the app again), each
 * with the app as GET shows it; a removal for good ends the app's streams and held requests.
 */
export function appRoutes(deps: Deps): RouteSpec[] {
  const { store, clock } = deps
  // Credentials that authenticated may name an app removed by a request in between: then they
  // are wrong credentials, as for the next request.
  const current = (appKey: string) => {
    const app = store.apps.get(appKey)
    if (!app) throw sandboxErrors.authFailed()
    return app
  }
  const view = (appKey: string) => {
    const shown = describeApp(deps, appKey)
    if (!shown) throw sandboxErrors.authFailed()
    return shown
  }
  // Inside the reset's write: seqs go on from where they were (hub.ts), so `after=` and
  // Last-Event-ID taken before the reset still read what comes after it.
  const resetEvent = (appKey: string) => {
    const data = appEventData(deps, appKey)
    if (data) store.events.append({ appKey, type: 'app.reset', data, at: data.clock.now })
  }
  const describeStorage = storageCounter(deps)
  return [
    schemaRoute({
      method: 'GET',
      url: '/app',
      docs: {
        summary: 'The app: its settings, balances, developer and clock',
        description: `The keys of an \`apps[]\` entry of the seed file (the limits in force, defaults filled in),
its \`developer\` (devKey, devSecret, standing, balances) and its \`clock\`.`,
      },
      schema: { response: { 200: appView } },
      handler: async req => view(req.tenant.app.appKey),
    }),
    schemaRoute({
      method: 'GET',
      url: '/app/storage',
      docs: {
        summary: "The app's share of the disk: its rows per table, their size, the caps on what grows",
        description:
          'Rows counted now, a page at a time with other requests served between pages, so a big app holds ' +
          'no other app: a row written or removed while the count runs may or may not be in it; a reset or ' +
          'import of the app meanwhile starts the count again. ' +
          '`approx_bytes` from bytes per row measured with indexes (docs/reliability.md). ' +
          'Devices are capped (MAX_DEVICES_PER_APP), push deliveries kept to PUSH_DELIVERIES_KEPT_PER_APP.',
      },
      schema: { response: { 200: storageView } },
      handler: async req => {
        const { appKey } = req.tenant.app
        // Removed for good while its rows were counted: wrong credentials now, as for the next request.
        return describeStorage(appKey, () =>
          req.operator ? sandboxErrors.unknownApp(appKey) : sandboxErrors.authFailed(),
        )
      },
    }),
    schemaRoute({
      method: 'PATCH',
      url: '/app',
      docs: {
        summary: "Change any of the app's settings at once",
        description: `Any subset of the keys GET shows, checked by the seed file's schema: objects with fixed keys merge
(\`balances\`, \`settings\`, \`settings.rate_limits\`, \`developer\`), the rest is replaced whole;
\`callback_url: null\` removes it, and a new one must pass the vendor's URL check. Answers the new state;
a request that fails changes nothing. Event: \`app.changed\`.`,
        errors: [
          sandboxErrors.invalidField('"balances.industry": Too small: expected number to be >=0'),
          sandboxErrors.callbackCheckFailed(
            '"callback_url": the vendor\'s URL check failed: GET http://127.0.0.1:9999/cb?echostr=… failed: ECONNREFUSED',
          ),
        ],
      },
      schema: { body: patchBody, response: { 200: appView } },
      handler: async req => {
        const { appKey } = req.tenant.app
        await applyPatch(deps, appKey, req.body, req.tenant.now())
        return view(appKey)
      },
    }),
    schemaRoute({
      method: 'POST',
      url: '/reset',
      docs: {
        summary: 'Back to its first use: every row and setting of the app, and what memory holds of it',
        description: `In one transaction: every row of the app removed, its fixtures and settings made again, its clock
back to real time, its faults, rate windows and poll windows forgotten; its developer too unless
another app shares it. Seqs go on from where they were. Answers the app as GET shows it. Event:
\`app.reset\`.`,
      },
      schema: { response: { 200: appView } },
      handler: async req => {
        const { appKey } = req.tenant.app
        await store.write({ announces: ['app.reset'] }, () => {
          reprovision(deps, current(appKey), clock.now())
          resetEvent(appKey)
        })
        return view(appKey)
      },
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/app',
      docs: {
        summary: 'Remove the app; the next request with well-formed credentials makes it afresh',
        description: `Everything the app made goes, as with a reset, and its own developer account too. The default app
and a seed file's come back at once from their definition (\`recreated: true\`: for them it is a reset);
an auto-provisioned one is gone, its held requests answered and its event streams ended.`,
      },
      schema: { response: { 200: removed } },
      handler: async req => {
        const { appKey } = req.tenant.app
        const recreated = await store.write({ announces: ['app.reset'] }, () => {
          const again = reprovision(deps, current(appKey), clock.now(), { remove: true })
          if (again) resetEvent(appKey)
          return again
        })
        if (!recreated) deps.hub.appRemoved(appKey)
        return { app_key: appKey, deleted: true as const, recreated }
      },
    }),
  ]
}
