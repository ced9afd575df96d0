import type { FastifyInstance } from 'fastify'
import { useVendorErrors, vendorErrorHandler } from '../http/error-handler.js'
import { acceptAnyBody } from '../http/json-body.js'
import { defineRoutes, type RouteSpec } from '../http/routes.js'
import { type Faults, useFaults } from '../sandbox/faults.js'
import type { CatchUp } from '../scheduler/catch-up.js'
import { type AuthDeps, type AuthHooks, registerBasicAuth } from '../sms/auth.js'
import { aliasRoutes } from './aliases.js'
import type { PushDeps } from './context.js'
import { deviceRoutes } from './devices.js'
import {
  deviceErrors,
  groupAuthErrors,
  groupFrameworkErrors,
  type PushGroup,
  pushErrors,
  reportErrors,
} from './errors.js'
import { pushRoutes } from './push.js'
import { useRateLimit } from './rate-limit.js'
import { reportRoutes } from './report.js'
import { tagRoutes } from './tags.js'

const methodNotAllowed: Record<PushGroup, () => Error> = {
  push: pushErrors.onlyPost,
  device: () => deviceErrors.invalid('Request method not supported').withStatus(405),
  report: () => reportErrors.invalid('Request method not supported').withStatus(405),
}

/**
 * One group of the v3 surface (the push, device and report hosts of jpush-api.md §1.1 share one
 * port here): its own body parser, error codes and auth codes, then its routes.
 */
function group(name: PushGroup, routes: (deps: PushDeps) => RouteSpec[]) {
  return async (
    app: FastifyInstance,
    deps: AuthDeps & { faults?: Faults; rate: AuthHooks; catchUp: CatchUp },
  ) => {
    const names = groupFrameworkErrors[name]
    acceptAnyBody(app, { invalidBody: names.invalidBody })
    // Not useVendorErrors: the groups share /v3, whose one not-found handler pushApi sets.
    app.setErrorHandler(vendorErrorHandler(names))
    await registerBasicAuth(app, deps, groupAuthErrors[name], { hooks: deps.rate })
    app.addHook('preHandler', deps.catchUp)
    useFaults(app, deps.faults)
    defineRoutes(app, routes(deps), methodNotAllowed[name])
  }
}

/** The JPush v3 surface (push-service.md, jpush-api.md), mounted at /v3. */
export async function pushApi(
  app: FastifyInstance,
  options: AuthDeps & { prefix?: string; faults?: Faults; catchUp: CatchUp },
): Promise<void> {
  const { prefix: _mounted, ...rest } = options // the groups sit at /v3 itself
  const deps = { ...rest, rate: useRateLimit(app, rest) }
  useVendorErrors(app, groupFrameworkErrors.push)
  await app.register(group('push', pushRoutes), deps)
  await app.register(
    group('device', d => [...deviceRoutes(d), ...tagRoutes(d), ...aliasRoutes(d)]),
    deps,
  )
  await app.register(group('report', reportRoutes), deps)
}
