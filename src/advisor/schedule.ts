import { formatLocal } from '../time.js'
import type { Rule } from './advice.js'

// The JPush rule over a task's trigger (push/schedules/schedules.ts runs it on the trigger it
// read, POST and PUT). A single time already past, and a JSMS send_time not after now, are refused
// today as the vendors refuse them (8100 "single.time has passed"; 50027): not warnings.

/**
 * A task's trigger as read, at the app's now. The feature passes its own occurrence arithmetic
 * (push/schedules/occurrences.ts) rather than the advisor importing it: the advisor sits below the
 * features that run it (test/architecture.test.ts).
 */
export interface ScheduleSubject {
  periodical: boolean
  /** The trigger's first occurrence at or after `from` (ms), if any. */
  occurrence(from: number): number | undefined
  /** The time zone the vendor reads the trigger in (JPush: Beijing). */
  timeZone: string
  now: number
}

export const scheduleRules: readonly Rule<ScheduleSubject>[] = [
  {
    rule: 'schedule-past',
    // The vendor takes a periodical task whose start has passed (jpush/jpush-api-java-client#20,
    // ScheduleExample.testCreateDailySchedule: start 2015-08-06, committed 2015-08-10) and fires
    // from now on: what fell between its start and now never fires.
    source:
      'https://docs.jiguang.cn/jpush/server/push/rest_api_push_schedule (periodical start, end, time); jpush/jpush-api-java-client#20 ScheduleExample (a past start accepted)',
    check({ periodical, occurrence, timeZone, now }) {
      if (!periodical) return undefined
      const first = occurrence(0) // from its start
      if (first === undefined || first >= now) return undefined
      const next = occurrence(now)
      const beijing = (ms: number) => formatLocal(ms, timeZone)
      return (
        `periodical's first occurrence, ${beijing(first)} (Beijing), is past on the app's clock ` +
        `(${beijing(now)}): it never fires; the task fires from ${next === undefined ? 'never' : beijing(next)} on`
      )
    },
  },
]
