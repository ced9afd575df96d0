import { formatLocal } from '../time.js'
import type { Rule } from './advice.js'

// The JSMS rules: what a text's own template and time say (sms/sending, sms/schedules read them).

/** A template text as sent now, or as scheduled for `at`. */
export interface SmsSubject {
  /** The template's type: 1 verification code, 2 notification, 3 marketing. */
  tempType: number
  /** When it goes out (the app's clock): now, or the schedule's send_time. */
  at: number
  /** SMS_TIME_ZONE: the zone the carriers' hours are read in. */
  timeZone: string
}

/** Carriers take marketing texts from 08:00 to 21:00 only, local time. */
export const MARKETING_HOURS = { from: '08:00:00', to: '21:00:00' } as const

export const smsRules: readonly Rule<SmsSubject>[] = [
  {
    rule: 'sms-marketing-hours',
    // "Marketing sends only 08:00–21:00": JSMS's rules page (jsms_rules.md of the JSMS docs), as the
    // project's wire notes record it (jsms-api.md §5, "enforcement UNKNOWN"): the carriers hold the
    // text, the call is accepted, so this is a warning and never a refusal.
    source: 'JSMS docs, jsms_rules.md: marketing texts are sent 08:00-21:00 only',
    check({ tempType, at, timeZone }) {
      if (tempType !== 3) return undefined
      const local = formatLocal(at, timeZone)
      const time = local.slice(11)
      if (time >= MARKETING_HOURS.from && time <= MARKETING_HOURS.to) return undefined
      return (
        `a marketing template goes out at ${local} (${timeZone}): carriers take marketing texts ` +
        `from ${MARKETING_HOURS.from.slice(0, 5)} to ${MARKETING_HOURS.to.slice(0, 5)} only`
      )
    },
  },
]
