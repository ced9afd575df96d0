import type { App } from '../store/apps/apps.js'
import type { PushGroup } from './dialect.js'

// The service's limits (push-service.md §8, jpush-api.md §3, §5, §7) as named constants.
export const PUSH_LIMITS = {
  /** Calls per one-minute window per appKey on the free plan (docs2019 server_overview, schedule). */
  ratePerMinute: { push: 600, device: 600, report: 2400, schedule: 100 } satisfies Record<PushGroup, number>,
  rateWindowMs: 60_000,
  /** Broadcasts (audience "all") per app per day (notice197). */
  broadcastsPerDay: 10,
  audienceTags: 20,
  audienceIds: 1000,
  audienceSegments: 1,
  /** Tag and alias values, in UTF-8 bytes. */
  valueBytes: 40,
  tagsPerOperation: 100,
  tagBytesPerOperation: 1000,
  tagsPerDevice: 1000,
  devicesPerAlias: 10,
  ridsPerOperation: 1000,
  /** Notification + message for Android; the `"ios":{…}` object; WinPhone; live activity. */
  androidBytes: 4000,
  iosBytes: 2000,
  iosMessageBytes: 4000,
  winphoneBytes: 1000,
  liveActivityBytes: 3584,
  defaultTimeToLive: 86_400,
  maxTimeToLive: 10 * 86_400,
  maxSmsDelay: 86_400,
  maxSmsContent: 480,
  maxSendno: 4_294_967_295,
  cidPerCall: 1000,
  cidLifetimeMs: 86_400_000,
  overrideWindowMs: 86_400_000,
  /** Like override_msg_id's: a push can be withdrawn within one day (INFERRED, README Fidelity). */
  withdrawWindowMs: 86_400_000,
  reportMsgIds: 100,
  statusRids: 1000,
  /** How long statistics are kept after a push (docs2019 report). */
  reportRetentionMs: 30 * 86_400_000,
} as const

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined
}

/** Per-app override from the seed file: `settings.rate_limits: {push, device, report, schedule}`. */
export function rateLimitOf(app: App | undefined, group: PushGroup): number {
  const own = app?.settings.rate_limits as Record<string, unknown> | undefined
  return positiveInt(own?.[group]) ?? PUSH_LIMITS.ratePerMinute[group]
}

/** Per-app override from the seed file: `settings.broadcasts_per_day`. */
export function broadcastLimitOf(app: App): number {
  return positiveInt(app.settings.broadcasts_per_day) ?? PUSH_LIMITS.broadcastsPerDay
}

/** Batch single push, POST /v3/push/batch/{regid|alias}/single (jpush-api.md §5.14). */
export const BATCH_LIMITS = {
  entries: 1000,
  /** 1000 entries of a few KB each (every platform object within its 1005 limit). */
  bodyBytes: 8 * 1024 * 1024,
} as const
