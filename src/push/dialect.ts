import { ApiError } from '../errors.js'
import type { Dialect } from '../http/dialect.js'
import { deviceErrors, pushErrors, reportErrors } from './errors.js'
import { scheduleErrors } from './schedules/rules.js'

// The v3 surface is three vendor hosts on one prefix here (jpush-api.md §1.1): push, device and
// report, and the Schedule API (§8) on the push host. They share the standing codes (2002–2008)
// and the 404, not the auth or body codes.

const shared = {
  notFound: () => new ApiError(404, 1003, 'API not found'),
  bodyTooLarge: () => pushErrors.tooBig('body'),
  blacklisted: pushErrors.blacklisted,
  ipNotWhitelisted: pushErrors.illegalIp,
  frozenDeveloper: pushErrors.noPermission,
  rateLimited: pushErrors.rateLimited,
}

/** The push host. A body that is not JSON is 1003 (§5.11, UNKNOWN). */
export const pushDialect: Dialect = {
  ...shared,
  methodNotAllowed: pushErrors.onlyPost,
  missingAuth: pushErrors.authFailed,
  authFailed: pushErrors.authFailed,
  malformedKey: pushErrors.appKeyInvalid,
  invalidBody: (reason = 'The request body is not valid JSON') => pushErrors.invalid(reason),
  serverError: pushErrors.internal,
}

/** The device host: devices, tags, aliases (§7). */
export const deviceDialect: Dialect = {
  ...shared,
  methodNotAllowed: () => deviceErrors.invalid('Request method not supported').withStatus(405),
  missingAuth: deviceErrors.missingAuth,
  authFailed: deviceErrors.authFailed,
  malformedKey: deviceErrors.appKeyInvalid,
  invalidBody: (reason = 'Invalid JSON body') => deviceErrors.invalid(reason),
  serverError: deviceErrors.internal,
}

/** The report host (§6). */
export const reportDialect: Dialect = {
  ...shared,
  methodNotAllowed: () => reportErrors.invalid('Request method not supported').withStatus(405),
  missingAuth: reportErrors.authFailed,
  authFailed: reportErrors.authFailed,
  malformedKey: reportErrors.authFailed,
  invalidBody: reason => (reason ? reportErrors.invalid(reason) : reportErrors.notJson()),
  serverError: reportErrors.internal,
}

/**
 * The Schedule API (§8), on the push host with its own codes: 8101 for credentials, 8100 for
 * whatever a request gets wrong (a wrong method included, as device and report do), 8104 for a
 * task (or an undecodable id) that is not there, 8200 for the sandbox's own failures.
 */
export const scheduleDialect: Dialect = {
  ...shared,
  notFound: scheduleErrors.notFound,
  methodNotAllowed: () => scheduleErrors.invalid('request method not supported').withStatus(405),
  missingAuth: scheduleErrors.authFailed,
  authFailed: scheduleErrors.authFailed,
  malformedKey: scheduleErrors.authFailed,
  invalidBody: (reason = 'request data is not json') => scheduleErrors.invalid(reason),
  bodyTooLarge: () => scheduleErrors.invalid('request data is too large'),
  serverError: scheduleErrors.internal,
}

export type PushGroup = 'push' | 'device' | 'report' | 'schedule'

export const pushDialects: Record<PushGroup, Dialect> = {
  push: pushDialect,
  device: deviceDialect,
  report: reportDialect,
  schedule: scheduleDialect,
}

/**
 * The paths (under /v3, whole segments) of the device, report and schedule APIs (jpush-api.md
 * §1.1; the schedules also under the Beijing data centre's `/v3/push/schedules`); the rest is push.
 */
export const HOST_PATHS = {
  // `test`: the test devices (/v3/test/model/…, docs/jpush-wire.md); `group`: group statistics.
  device: ['devices', 'tags', 'aliases', 'test'],
  report: ['received', 'status', 'messages', 'users', 'group'],
  schedule: ['schedules', 'push/schedules'],
} as const

/**
 * The Beijing data centre (bjapi.push.jiguang.cn) serves both hosts under one more segment
 * (jpush-api.md §1.1; the clients' `BJ` zones: py common.py ZONES, php Client.php $zones):
 * `/v3/device/{rid}`, `/v3/device/status`, `/v3/device/tags/…`, `/v3/device/aliases/…`,
 * `/v3/report/received` and the other report paths. Its push paths are the default host's.
 */
export const BEIJING_ROOT = { device: 'device', report: 'report' } as const

/** Each first segment of HOST_PATHS and the segments that replace it at the Beijing data centre. */
export const BEIJING_PATHS = {
  device: beijing('device', p => (p === 'devices' ? BEIJING_ROOT.device : `${BEIJING_ROOT.device}/${p}`)),
  report: beijing('report', p => `${BEIJING_ROOT.report}/${p}`),
}

function beijing(group: 'device' | 'report', to: (path: string) => string): Readonly<Record<string, string>> {
  return Object.fromEntries(HOST_PATHS[group].map(p => [p, to(p)]))
}

/** Which group (and so which quota and which codes) a /v3 path belongs to (jpush-api.md §1.1). */
export function groupOf(url: string): PushGroup {
  const path = url.split('?')[0]!.replace(/\/{2,}/g, '/')
  const first = /^\/v3\/([^/]*)/.exec(path)?.[1] ?? ''
  if (HOST_PATHS.schedule.some(p => path === `/v3/${p}` || path.startsWith(`/v3/${p}/`))) return 'schedule'
  for (const group of ['device', 'report'] as const)
    if ((HOST_PATHS[group] as readonly string[]).includes(first) || BEIJING_ROOT[group] === first)
      return group
  return 'push'
}
