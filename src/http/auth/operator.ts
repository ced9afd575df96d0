import type { FastifyRequest } from 'fastify'
import type { Clock } from '../../clock.js'
import type { OperatorCredentials } from '../../config.js'
import type { ApiError } from '../../errors.js'
import type { Store } from '../../store/index.js'
import { safeEqual, tenantOf } from '../../tenancy.js'
import { routeConfig } from '../route-config.js'

// The operator (SANDBOX_OPERATOR=user:password; unset: `operator:operator` on loopback, a password
// generated at the first start beyond it; `off`: none): the one credential that is no app's. On the
// control plane it lists every app (routes marked `auth: 'operator'`) and acts on any one of them
// by naming it, `X-Sandbox-App: <appKey>`, as that app's own credentials would, without its
// secret. /v1 and /v3 do not know it: there its user and password are answered as any others are,
// so the vendor surfaces never tell a right operator password from a wrong one (auth.ts). An app's
// credentials still act on that app only. Its failed sign-ins are slowed: sign-in-limit.ts.

export type { OperatorCredentials }

/** How a surface that takes the operator refuses (the control plane's codes: control/dialect.ts). */
export interface OperatorRefusals {
  /** An operator-only route called with an app's credentials, or X-Sandbox-App sent by an app. */
  operatorOnly(): ApiError
  /** The operator on a route that acts for one app, without naming it. */
  appNotNamed(): ApiError
  /** X-Sandbox-App names no app. */
  unknownApp(appKey: string): ApiError
  /** Too many failed sign-ins from the client's address (sign-in-limit.ts): wait `seconds`. */
  tooManySignIns(seconds: number): ApiError
}

/** The header naming the app the operator acts on. */
export const APP_HEADER = 'x-sandbox-app'

/** Whether user:password are the operator's (the password compared in constant time). */
export function isOperatorLogin(
  operator: OperatorCredentials | undefined,
  user: string,
  password: string,
): boolean {
  return operator != null && user === operator.user && safeEqual(operator.password, password)
}

/** The appKey of X-Sandbox-App, when sent (the first one, trimmed). */
function namedApp(req: FastifyRequest): string | undefined {
  const header = req.headers[APP_HEADER]
  const value = (Array.isArray(header) ? header[0] : header)?.trim()
  return value === '' ? undefined : value
}

/**
 * The operator's credentials are right: the request is the operator's, and the tenant of the app
 * X-Sandbox-App names, unless the route is the operator's own (`auth: 'operator'`), which acts
 * for no app.
 */
export function operatorLogin(
  deps: { store: Store; clock: Clock },
  req: FastifyRequest,
  refusals: OperatorRefusals,
): void {
  req.operator = true
  const appKey = namedApp(req)
  const auth = routeConfig(req)?.auth
  if ((auth === 'operator' || auth === 'app-or-operator') && appKey === undefined) return
  if (appKey === undefined) throw refusals.appNotNamed()
  const app = deps.store.apps.get(appKey)
  if (!app) throw refusals.unknownApp(appKey)
  req.tenant = tenantOf(deps.clock, app)
}

/**
 * An app's credentials on a surface that takes the operator: its own routes only. A route of the
 * operator's, or X-Sandbox-App naming another app, is refused (naming itself is harmless).
 */
export function checkAppScope(req: FastifyRequest, appKey: string, refusals: OperatorRefusals): void {
  if (routeConfig(req)?.auth === 'operator') throw refusals.operatorOnly().because('an app lists only itself')
  const named = namedApp(req)
  if (named !== undefined && named !== appKey)
    throw refusals.operatorOnly().because(`X-Sandbox-App names ${named}; these are ${appKey}'s credentials`)
}
