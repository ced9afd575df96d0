import type { FastifyInstance } from 'fastify'
import { useVendorErrors } from '../http/error-handler.js'
import { acceptAnyBody } from '../http/json-body.js'
import { defineRoutes } from '../http/routes.js'
import { type Faults, useFaults } from '../sandbox/faults.js'
import type { CatchUp } from '../scheduler/catch-up.js'
import { accountRoutes } from './accounts.js'
import { type AuthDeps, registerBasicAuth, smsAuthErrors } from './auth.js'
import { codeRoutes } from './codes.js'
import { smsErrors } from './errors.js'
import { messageRoutes } from './messages.js'
import { reportRoutes } from './reports.js'
import { scheduleRoutes } from './schedules.js'
import { signRoutes } from './signs.js'
import { templateRoutes } from './templates.js'

export const smsFrameworkErrors = {
  notFound: smsErrors.apiNotFound,
  missingAuth: smsErrors.missingAuth,
  invalidBody: smsErrors.invalidBody,
  // sms-service.md §7: 50007 is HTTP 403, whatever made the body invalid, its size included.
  bodyTooLarge: smsErrors.invalidBody,
  mediaNotSupported: smsErrors.mediaNotSupported,
  serverError: smsErrors.serverError,
}

/** The JSMS v1 surface (sms-service.md §4), mounted at /v1. */
export async function smsApi(
  app: FastifyInstance,
  deps: AuthDeps & { faults?: Faults; catchUp: CatchUp },
): Promise<void> {
  acceptAnyBody(app, smsErrors)
  useVendorErrors(app, smsFrameworkErrors)
  await registerBasicAuth(app, deps, smsAuthErrors)
  app.addHook('preHandler', deps.catchUp)
  useFaults(app, deps.faults)
  defineRoutes(
    app,
    [
      ...codeRoutes(deps),
      ...messageRoutes(deps),
      ...accountRoutes(deps),
      ...templateRoutes(deps),
      ...signRoutes(deps),
      ...scheduleRoutes(deps),
      ...reportRoutes(deps),
    ],
    smsErrors.methodNotSupported,
  )
}
