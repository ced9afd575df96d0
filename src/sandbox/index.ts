import type { FastifyInstance } from 'fastify'
import { useVendorErrors } from '../http/error-handler.js'
import { acceptAnyBody } from '../http/json-body.js'
import { defineRoutes } from '../http/routes.js'
import type { CatchUp } from '../scheduler/catch-up.js'
import { type AuthDeps, registerBasicAuth, smsAuthErrors } from '../sms/auth.js'
import { smsErrors } from '../sms/errors.js'
import { callbackRoutes } from './callbacks.js'
import { clockRoutes } from './clock.js'
import type { SandboxDeps } from './context.js'
import { sandboxFrameworkErrors } from './errors.js'
import { faultRoutes } from './fault-routes.js'
import { type OpsDeps, opsRoutes } from './ops.js'
import { pushDeviceRoutes } from './push-devices.js'
import { replyRoutes } from './replies.js'
import { reviewRoutes } from './review.js'
import { smsInspectRoutes } from './sms-inspect.js'

/**
 * The control plane under /_sandbox: scoped by the same Basic credentials as the API, so one app
 * can only ever see and steer itself. Blacklisted or frozen apps may still look inside.
 */
export async function sandboxApi(
  app: FastifyInstance,
  deps: SandboxDeps & OpsDeps & Pick<AuthDeps, 'provisioning'> & { catchUp: CatchUp },
): Promise<void> {
  acceptAnyBody(app, sandboxFrameworkErrors)
  useVendorErrors(app, sandboxFrameworkErrors)
  await registerBasicAuth(app, deps, smsAuthErrors, { standing: false })
  app.addHook('preHandler', deps.catchUp)
  defineRoutes(
    app,
    [
      ...smsInspectRoutes(deps),
      ...reviewRoutes(deps),
      ...clockRoutes(deps),
      ...replyRoutes(deps),
      ...callbackRoutes(deps),
      ...pushDeviceRoutes(deps),
      ...opsRoutes(deps),
      ...faultRoutes(deps.faults),
    ],
    smsErrors.methodNotSupported,
  )
}
