import type { FastifyInstance } from 'fastify'
import { useVendorErrors } from '../http/error-handler.js'
import { acceptAnyBody } from '../http/json-body.js'
import { defineRoutes } from '../http/routes.js'
import { registerBasicAuth, smsAuthErrors } from '../sms/auth.js'
import type { SmsDeps } from '../sms/context.js'
import { smsErrors } from '../sms/errors.js'
import { smsFrameworkErrors } from '../sms/index.js'
import { type OpsDeps, opsRoutes } from './ops.js'
import { smsInspectRoutes } from './sms-inspect.js'

/**
 * The control plane under /_sandbox: scoped by the same Basic credentials as the API, so one app
 * can only ever see and steer itself. Blacklisted or frozen apps may still look inside.
 */
export async function sandboxApi(app: FastifyInstance, deps: SmsDeps & OpsDeps): Promise<void> {
  acceptAnyBody(app, smsErrors)
  useVendorErrors(app, smsFrameworkErrors)
  await registerBasicAuth(app, deps, smsAuthErrors, { standing: false })
  defineRoutes(app, [...smsInspectRoutes(deps), ...opsRoutes(deps)], smsErrors.methodNotSupported)
}
