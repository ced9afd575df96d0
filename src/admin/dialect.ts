import { ApiError } from '../errors.js'
import type { Dialect } from '../http/dialect.js'
import { adminErrors } from './errors.js'

// What the Admin API calls each failure that is not a route's own. Its table has no code for an
// unknown path: a 404 with its "invalid parameter" code, as the sandbox's choice (fidelity.md).
// Its calls are the developer's (devKey:devSecret), with no app standing to check.

const noStanding = adminErrors.internal

export const adminDialect: Dialect = {
  notFound: () => new ApiError(404, 4003, 'Request api not found'),
  methodNotAllowed: adminErrors.onlyPost,
  missingAuth: adminErrors.badAuthorization,
  authFailed: adminErrors.devSecretWrong,
  unknownDeveloper: adminErrors.devKeyUnknown,
  malformedKey: adminErrors.devKeyUnknown,
  invalidBody: (reason = 'body') => adminErrors.invalid(reason),
  missingBody: () => adminErrors.missing('body'),
  bodyTooLarge: () => adminErrors.invalid('body (over the size limit)'),
  serverError: adminErrors.internal,
  blacklisted: noStanding,
  ipNotWhitelisted: noStanding,
  frozenDeveloper: adminErrors.noPermission,
}
