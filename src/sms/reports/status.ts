import type { PipelineDeps } from '../../deps.js'
import type { App } from '../../store/apps/apps.js'

// Delivery report statuses (jsms-api.md §2.8): 4001 delivered; 4002 carrier blacklist; 4003
// handset off or suspended; 4004 number does not exist; 4005 insufficient balance; 4006 carrier
// frequency limit; 4007–4009 voice not answered / busy / unreachable; 4010 sensitive words;
// 4100 other error.
const DELIVERED = 4001
const FAILURE_STATUSES = new Set([4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010, 4100])

/** Every status a report can carry. */
export const REPORT_STATUSES: readonly number[] = [DELIVERED, ...FAILURE_STATUSES]

/**
 * The sandbox's carrier: a mobile whose last four digits are one of the failure statuses
 * (13800004004, 13912344100…) gets that status; every other number is delivered (4001).
 */
export function reportStatusFor(mobile: string): number {
  const tail = Number(mobile.slice(-4))
  return FAILURE_STATUSES.has(tail) ? tail : DELIVERED
}

/** The report of a scheduled recipient refused when the task fired, from the refusal's code. */
export function reportStatusForError(code: number): number {
  if (code === 50014) return 4005
  if (code === 50009) return 4006
  if (code === 50037) return 4010
  return 4100
}

/**
 * Records the report a message will get after REPORT_DELAY_MS of clock time. Call it inside the
 * write job that stores the message. It is pulled (GET /v1/report) or, when the app has a
 * callback URL, called back (SMS_REPORT) by the scheduler.
 */
export function recordReport(
  deps: Pick<PipelineDeps, 'store' | 'config'>,
  app: Pick<App, 'appKey' | 'callbackUrl'>,
  report: { msgId: string; mobile: string; status: number },
  now: number,
): void {
  deps.store.reports.insert(
    { ...report, appKey: app.appKey, reportAt: now + deps.config.reportDelayMs },
    app.callbackUrl !== null,
  )
}
