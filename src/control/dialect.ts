import type { ApiError } from '../errors.js'
import type { OperatorRefusals } from '../http/auth/operator.js'
import type { Dialect } from '../http/dialect.js'
import { sandboxErrors } from './errors.js'

// The control plane answers in the common envelope with its own codes (errors.ts), and plainly:
// a request it cannot take says which field and why.

/** 400 90020 with the reason: `"field": the problem`, or a sentence naming the fields. */
export const invalidControlBody = (why: string): ApiError => sandboxErrors.invalidField(why)

// Never asked: /_sandbox is mounted without the standing check (app.ts), so that a blacklisted
// app or one of a frozen developer can still look inside and PATCH itself back.
const noStandingCheck = sandboxErrors.serverError

/** /_sandbox's codes: its own table (errors.ts), never a vendor's. */
export const sandboxDialect: Dialect = {
  notFound: sandboxErrors.notFound,
  methodNotAllowed: sandboxErrors.methodNotAllowed,
  missingAuth: sandboxErrors.missingAuth,
  authFailed: sandboxErrors.authFailed,
  malformedKey: sandboxErrors.authFailed,
  invalidBody: reason => (reason ? invalidControlBody(reason) : sandboxErrors.notAnObject()),
  missingBody: sandboxErrors.missingBody,
  bodyTooLarge: sandboxErrors.bodyTooLarge,
  mediaNotSupported: sandboxErrors.mediaNotSupported,
  serverError: sandboxErrors.serverError,
  overBound: () => sandboxErrors.tooManyListeners('over a bound'),
  blacklisted: noStandingCheck,
  ipNotWhitelisted: noStandingCheck,
  frozenDeveloper: noStandingCheck,
}

/** How the control plane refuses the operator's credentials (http/auth/operator.ts). */
export const operatorRefusals: OperatorRefusals = {
  operatorOnly: sandboxErrors.operatorOnly,
  appNotNamed: sandboxErrors.appNotNamed,
  unknownApp: sandboxErrors.unknownApp,
  tooManySignIns: sandboxErrors.tooManySignIns,
}
