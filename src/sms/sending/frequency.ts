import type { MessageStore } from '../../store/sms/messages.js'
import { localDayStart } from '../../time.js'
import { smsErrors } from '../errors.js'
import { ONE_DAY, SMS_LIMITS, TEN_MINUTES } from '../limits.js'

export interface FrequencySubject {
  appKey: string
  mobile: string
  kind: 'code' | 'voice_code' | 'template'
  /** Template type: 1 verification, 2 notification, 3 marketing. */
  tempType: number | null
  content: string
}

/**
 * The per-app, per-mobile limits of sms-service.md §8 (50009). Windows are counted from the
 * messages actually sent, so they are exact, durable and move with the app's clock. Must run
 * inside the write job that then stores the message, so two requests cannot both pass the edge.
 */
export function checkFrequency(
  messages: MessageStore,
  s: FrequencySubject,
  now: number,
  timeZone: string,
): void {
  const { appKey, mobile } = s
  if (s.kind === 'voice_code') {
    if (messages.countKindSince(appKey, mobile, 'voice_code', now - SMS_LIMITS.voiceIntervalMs) > 0) {
      throw smsErrors.outOfFreq()
    }
    return
  }
  if (s.kind === 'code' || s.tempType === 1) {
    if (messages.countCodesSince(appKey, mobile, now - ONE_DAY) >= SMS_LIMITS.codesPer24h) {
      throw smsErrors.outOfFreq()
    }
    return
  }
  if (s.tempType === 2) {
    // "per day" is the calendar day in the configured zone (Beijing time by default).
    const dayStart = localDayStart(now, timeZone) - 1
    const sent = messages.countNotifications(appKey, mobile, s.content, now - TEN_MINUTES, dayStart)
    if (sent.same >= SMS_LIMITS.notificationSameContentPer10Min) throw smsErrors.outOfFreq()
    if (sent.day >= SMS_LIMITS.notificationPerDay) throw smsErrors.outOfFreq()
    return
  }
  if (s.tempType === 3) {
    if (messages.countTypeSince(appKey, mobile, 3, now - TEN_MINUTES) >= SMS_LIMITS.marketingPer10Min) {
      throw smsErrors.outOfFreq()
    }
  }
}
