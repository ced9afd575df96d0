import { ApiError } from '../errors.js'

// The JPush v3 code tables (jpush-api.md §5.12, §6.6, §7), one line each. Messages follow the
// live service's literals where transcripts show them.
const e = (status: number, code: number, message: string) => () => new ApiError(status, code, message)

/**
 * The vendor's "Only support HTTP POST method" (JPush 1001, Admin 4001), naming the methods a
 * path answers when POST is not one of them: "Only support HTTP GET or DELETE method".
 */
export function onlyMethods(allowed?: readonly string[]): string {
  const named = !allowed || allowed.length === 0 || allowed.includes('POST') ? ['POST'] : allowed
  return `Only support HTTP ${named.join(' or ')} method`
}

export const pushErrors = {
  internal: e(500, 1000, 'Server internal error'),
  /**
   * A method the path does not answer (jpush-api.md §5.12: 405 1001). The vendor's words are for
   * its POST paths; a path that takes other methods names those in the same words, so the message
   * is never "only POST" where POST is refused too (issue 29, point 10).
   */
  onlyPost: (allowed?: readonly string[]) => new ApiError(405, 1001, onlyMethods(allowed)),
  missing: (what: string) => new ApiError(400, 1002, `Missing parameter: ${what}`),
  invalid: (message: string) => new ApiError(400, 1003, message),
  authFailed: e(401, 1004, 'Authen failed'),
  tooBig: (what: string) => new ApiError(400, 1005, `Message is too long: ${what}`),
  appKeyInvalid: e(400, 1008, 'app_key does not exist'),
  unsupportedKey: (key: string) => new ApiError(400, 1009, `Unsupported key in push object: ${key}`),
  noTarget: (msgId: string) =>
    new ApiError(400, 1011, 'cannot find user by this audience or has been inactive for more than 255 days', {
      msg_id: msgId,
    }),
  /** Plain HTTP on /v3 when HTTPS_ONLY is set (https-only.ts). */
  httpsOnly: e(404, 1020, 'Only support HTTPS request'),
  /** Never the sandbox's own answer: a fault may arm it, to test a client's retry and back-off. */
  timeout: e(503, 1030, 'Internal service timeout'),
  rateLimited: e(429, 2002, 'Rate limit exceeded'),
  blacklisted: e(403, 2003, 'The appKey is in black list.'),
  illegalIp: e(403, 2004, 'The request ip is not in the ip whitelist of this app'),
  /** docs2019's push table; only a fault answers it here. */
  tooMuchVolume: e(403, 2005, 'Message volume beyond a reasonable range'),
  /** VIP-only APIs (docs2019); the sandbox lets every app use them, so only a fault answers it. */
  notVip: e(403, 2006, 'This API is only available to VIP apps'),
  noPermission: e(403, 2007, 'No permission to use this API'),
  broadcastLimit: e(403, 2008, 'Broadcast push times exceed the limit of today'),
  /**
   * The file API with devKey:devSecret for a developer without VIP file group push (rest_api_v3_file:
   * "否则返回 1105 错误码"; the status and the English wording are the sandbox's).
   */
  noFileGroupPush: e(403, 1105, 'The developer has no permission of VIP file group push'),
  // What the push host's newer APIs refuse (docs/jpush-wire.md), in the codes of its table.
  /** A media_id the app does not have (never uploaded, another app's, or past its 30 days). */
  unknownMedia: (mediaId: string) =>
    new ApiError(400, 1003, `media_id ${mediaId.slice(0, 80)} does not exist`),
  /** A field that names an image of another type (1 big picture, 2 large icon, 3 small icon). */
  wrongMediaType: (field: string, wanted: number, given: number) =>
    new ApiError(400, 1003, `${field} takes an image of image_type ${wanted}, not ${given}`),
  imageTooBig: (part: string, limit: number) =>
    new ApiError(400, 1005, `Message is too long: ${part} is over ${limit} bytes`),
  /** A push naming a plan the app does not have (business_operation_code). */
  unknownPlan: (name: string) =>
    new ApiError(400, 1003, `business_operation_code ${name} is not a push plan of this app`),
  tooManyImages: (limit: number) =>
    new ApiError(
      400,
      1012,
      `an app keeps at most ${limit} images at once: they go 30 days after their last change`,
    ),
  /**
   * `distribution: "ospush"` for a vendor whose daily quota is too small (cav options.go:184-186:
   * "提示厂商配额不足"; the English wording is the sandbox's).
   */
  vendorQuota: () => new ApiError(400, 1012, 'vendor quota is insufficient for ospush distribution'),
  unknownTemplate: (id: string) => new ApiError(400, 1003, `template id ${id.slice(0, 80)} does not exist`),
} as const

export const reportErrors = {
  internal: e(500, 10, 'Server internal error'),
  authFailed: e(401, 3001, 'Basic authentication failed'),
  invalid: (message = 'Parameter is invalid') => new ApiError(400, 3002, message),
  notJson: e(400, 3002, 'Parameter is invalid, not a valid JSON format'),
  timeUnitMismatch: e(400, 3004, 'time_unit and start do not match'),
  tooFarBack: (days = 60) =>
    new ApiError(400, 3005, `Only the statistics of the last ${days} days can be queried`),
} as const

export const deviceErrors = {
  internal: e(500, 7000, 'Server internal error'),
  missingAuth: e(401, 7001, 'Basic authentication is missing'),
  invalid: (message = 'Invalid request parameter') => new ApiError(400, 7002, message),
  authFailed: e(401, 7004, 'Basic authentication failed'),
  appKeyInvalid: e(400, 7008, 'appkey does not exist'),
  someInvalid: (rids: string[]) =>
    new ApiError(400, 7013, `Some registration_ids are invalid: ${rids.join(',')}`).withIllegalRids(rids),
  aliasFull: e(400, 7015, 'The alias is already bound to 10 devices'),
  /** A test device operation on a device that is no test device of the app. */
  notATestDevice: (rid: string) =>
    new ApiError(400, 7002, `registration_id ${rid.slice(0, 64)} is not a test device`),
  testDeviceTaken: (rid: string) =>
    new ApiError(400, 7002, `registration_id ${rid.slice(0, 64)} is already a test device`),
  /** docs2019's device table (503); only a fault answers it here. */
  busy: e(503, 7030, 'System busy, please retry later'),
} as const
