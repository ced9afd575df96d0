import { ApiError } from '../errors.js'

// The JPush Admin API's code table (docs/jpush-wire.md "Admin API"; the vendor's
// rest_api_admin_api_v1 and app_create_api pages), one line each. Its own quirk: the refusals of
// an app or a certificate (1010–1015) come with HTTP 200, as the table says; the clients read the
// `error` object whatever the status (python AdminResponse, cav CodeError).
const e = (status: number, code: number, message: string) => () => new ApiError(status, code, message)

export const adminErrors = {
  internal: e(500, 10, 'System error'),
  certificateExists: e(200, 1010, 'certificate already exists'),
  certificateInvalid: (why: string) => new ApiError(200, 1012, `certificate invalid: ${why}`),
  appKeyInvalid: e(200, 1013, 'appkey is invalid'),
  noCertificateFile: e(200, 1014, 'no certificate file in the request'),
  deleteFailed: e(200, 1015, 'app delete fail'),
  /**
   * A method the path does not answer. The vendor's words name the method refused: `Get HTTP
   * method is not allowed` (docs/jpush-wire.md "Admin API", docs2019 rest_api_admin_api_v1).
   */
  onlyPost: (_allowed?: readonly string[], method = 'GET') =>
    new ApiError(405, 4001, `${method.charAt(0)}${method.slice(1).toLowerCase()} HTTP method is not allowed`),
  missing: (param: string) => new ApiError(400, 4002, `Request parameter ${param} is null or empty`),
  invalid: (param: string) => new ApiError(400, 4003, `Request parameter ${param} is invalid`),
  /** The sandbox's own bound on apps (AUTO_PROVISION_MAX_APPS…) refuses a new one: why. */
  appRefused: (reason: string) => new ApiError(400, 4003, `Request refused: ${reason}`),
  devKeyUnknown: e(401, 4004, 'Authentication failed: dev_key does not exist'),
  devSecretWrong: e(401, 4005, 'Authentication failed: dev_key and dev_secret are not matched'),
  badAuthorization: e(401, 4006, 'Authentication failed: it is not a valid authorization string'),
  noPermission: e(401, 4007, 'Authentication failed: the account has no permission for this API'),
} as const
