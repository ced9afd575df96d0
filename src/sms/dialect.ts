import type { Dialect } from '../http/dialect.js'
import { smsErrors } from './errors.js'

/** The JSMS v1 surface's codes (sms-service.md §7). JSMS keeps its literal messages: no reasons. */
export const smsDialect: Dialect = {
  notFound: smsErrors.apiNotFound,
  methodNotAllowed: smsErrors.methodNotSupported,
  missingAuth: smsErrors.missingAuth,
  authFailed: smsErrors.authFailed,
  malformedKey: smsErrors.authFailed,
  invalidBody: smsErrors.invalidBody,
  missingBody: smsErrors.missingBody,
  // sms-service.md §7: 50007 is HTTP 403, whatever made the body invalid, its size included.
  bodyTooLarge: smsErrors.invalidBody,
  mediaNotSupported: smsErrors.mediaNotSupported,
  serverError: smsErrors.serverError,
  blacklisted: smsErrors.appInBlack,
  ipNotWhitelisted: smsErrors.illegalIp,
  frozenDeveloper: smsErrors.invalidAccount,
  serviceNotEnabled: smsErrors.noSmsCodeAuth,
}
