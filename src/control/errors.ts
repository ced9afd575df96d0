import { ApiError } from '../errors.js'

// The control plane's own error table (README "Errors of the control plane"). Its codes are
// 90001–90099: no vendor uses them (JSMS 50001–50301, JPush 10–8203), so an answer's code alone
// says whether the sandbox or the emulated service refused. 4xx are the caller's mistakes, always
// with a message naming the field and the problem; the status says which kind (400 bad input, 404
// an unknown id, 409 a state that forbids the request). Codes are stable: never renumber one.

const e = (status: number, code: number, message: string) => () => new ApiError(status, code, message)
const why = (status: number, code: number) => (message: string) => new ApiError(status, code, message)

export const sandboxErrors = {
  missingAuth: e(401, 90001, 'missing credentials: send HTTP Basic appKey:masterSecret'),
  authFailed: e(401, 90002, 'wrong credentials: appKey and masterSecret do not match'),
  /** GET /_sandbox/events?token=: not one POST /_sandbox/events/token gave, or expired. */
  badEventToken: e(
    401,
    90003,
    'the token is unknown or expired: POST /_sandbox/events/token gives a new one (valid 10 minutes)',
  ),
  notFound: e(404, 90004, 'no such endpoint under /_sandbox'),
  methodNotAllowed: e(405, 90005, 'this endpoint does not answer that method'),
  /** An operator's route with an app's credentials, or X-Sandbox-App naming another app. */
  operatorOnly: e(
    403,
    90006,
    "only the operator's credentials (SANDBOX_OPERATOR) may do this: an app's act on that app alone",
  ),
  /** The operator's credentials on a route that acts for one app, without X-Sandbox-App. */
  appNotNamed: e(
    400,
    90007,
    'the operator acts on one app at a time: name it with the X-Sandbox-App header (its appKey)',
  ),
  /** Too many failed sign-ins from one client address (SIGN_IN_FAILURES_PER_MINUTE): when to retry. */
  tooManySignIns: (seconds: number) =>
    new ApiError(
      429,
      90008,
      `too many failed sign-ins from this address: its credentials are checked again in ${seconds} s (SIGN_IN_FAILURES_PER_MINUTE)`,
    ),
  notAnObject: e(400, 90010, 'the body must be a JSON object'),
  missingBody: e(400, 90011, 'missing body: this endpoint takes a JSON object'),
  bodyTooLarge: e(413, 90012, 'the body is over the 1 MiB limit'),
  mediaNotSupported: e(415, 90013, 'the body must be JSON, not a form or XML'),
  /** A field (of the body or the query) the endpoint cannot take: `"path": the problem`. */
  invalidField: why(400, 90020),
  /** The vendor's URL check of a callback_url failed (jsms-api.md §6): why. */
  callbackCheckFailed: why(400, 90030),
  unknownMsgId: why(404, 90040),
  unknownTempId: e(404, 90041, 'no template with this temp_id'),
  unknownSignId: e(404, 90042, 'no signature with this sign_id'),
  unknownRegistrationId: (message = 'no device with this registration_id') =>
    new ApiError(404, 90043, message),
  noCode: e(404, 90044, 'no verification code for this mobile'),
  unknownMediaId: e(404, 90045, 'no image with this media_id (or it is past its 30 days)'),
  unknownPushTemplate: e(404, 90046, 'no push template with this id'),
  unknownPushPlan: e(404, 90047, 'no push plan with this name'),
  /** X-Sandbox-App names no app. */
  unknownApp: (appKey: string) => new ApiError(404, 90048, `no app with appKey ${appKey} (X-Sandbox-App)`),
  registrationIdTaken: e(409, 90050, 'registration_id already exists'),
  reportHandedOut: why(409, 90051),
  notSentYet: why(409, 90052),
  clockBackwards: e(409, 90053, 'the clock only moves forward'),
  tooManyFaults: why(409, 90054),
  /** An imported document holds an id another app of the sandbox holds (app/transfer.ts): which. */
  idTaken: why(409, 90056),
  /** A click on a push the device never received: why (not in its audience, offline, expired). */
  notReceived: why(409, 90055),
  /** The app holds as many devices as MAX_DEVICES_PER_APP allows: how many. */
  tooManyDevices: (max: number) =>
    new ApiError(
      409,
      90057,
      `the app already has ${max} devices, the most one app may register (MAX_DEVICES_PER_APP): reset the app (POST /_sandbox/reset) or raise the setting`,
    ),
  /**
   * Over a bound on what the sandbox holds (limits/held.ts, events/hub.ts): requests held by
   * `wait=`, event streams, connections, pipelined requests; the message names the bound and its
   * setting. 429 for an app's or a client's share, 503 (`withStatus`) for the whole sandbox's.
   */
  tooManyListeners: why(429, 90060),
  serverError: e(500, 90099, 'server error'),
} as const

/** `"field": problem`, the message of every invalid field. */
export const invalidField = (field: string, problem: string) =>
  sandboxErrors.invalidField(`"${field}": ${problem}`)
