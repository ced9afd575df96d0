import { ApiError } from '../../errors.js'
import type { App } from '../../store/apps/apps.js'

// The Schedule API's codes and limits (jpush-api.md §8; docs2019 rest_api_push_schedule.md).

const e = (status: number, code: number, message: string) => () => new ApiError(status, code, message)

/**
 * The §8 table, one line each. The docs' examples also show 8400 (a failed create, HTTP 400) and
 * 8404 (a failed delete, HTTP 404): the table's 8100 and 8104 with the status in place of the
 * middle digits. The table is the contract: the sandbox answers 8100 and 8104 (README, Fidelity).
 */
export const scheduleErrors = {
  /** The one code for everything a request gets wrong; `detail` says what. */
  invalid: (detail: string) => new ApiError(400, 8100, `The schedule-task is invalid: ${detail}`),
  authFailed: e(401, 8101, 'Basic authentication failed.'),
  notFound: e(404, 8104, "Request schedule operation doesn't exist"),
  internal: e(500, 8200, 'Server internal error.'),
  /** §8's 503; only a fault answers it here. */
  // The vendor's table's words (rest_api_push_schedule: 8203), which clients print as they come.
  timeout: e(503, 8203, 'Execute action timeout, please try later again'),
} as const

export const SCHEDULE_LIMITS = {
  /** Tasks not yet expired (single and periodical together) per app; VIP up to 2000. */
  activeTasks: 100,
  perPage: 50,
  nameBytes: 255,
  maxFrequency: 100,
  /** A single task at most a year ahead, a periodical one at most a year long (12 months). */
  aheadMonths: 12,
  spanMonths: 12,
  /** A cid repeated within a day returns the first task (jpush-api.md §5.10). */
  cidLifetimeMs: 86_400_000,
} as const

/** JPush speaks Beijing time (docs2019), whatever SMS_TIME_ZONE says for JSMS. */
export const JPUSH_TIME_ZONE = 'Asia/Shanghai'

/** Per-app override from the seed file or the control plane: `settings.schedules_limit`. */
export function scheduleLimitOf(app: App): number {
  const own = app.settings.schedules_limit
  return typeof own === 'number' && Number.isInteger(own) && own > 0 ? own : SCHEDULE_LIMITS.activeTasks
}
