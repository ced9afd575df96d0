import { pushErrors } from '../errors.js'
import { PUSH_LIMITS } from '../limits.js'
import { byteLength, isObject, type Json } from '../values.js'
import type { PlatformNotifications } from './notification.js'

// Payload size limits (jpush-api.md §5.9, 1005). Bytes are counted as java does: the UTF-8 of
// the JSON text of each platform object as it will be delivered (the shared alert included).

const size = (value: unknown) => (value === undefined ? 0 : byteLength(JSON.stringify(value)))

export function checkSizes(
  notification: PlatformNotifications | undefined,
  message: Json | undefined,
  liveActivity: Json | undefined,
  explicitWinphone: boolean,
): void {
  if (notification?.android && size(notification.android) + size(message) > PUSH_LIMITS.androidBytes) {
    throw pushErrors.tooBig(`android notification and message exceed ${PUSH_LIMITS.androidBytes} bytes`)
  }
  if (!notification?.android && size(message) > PUSH_LIMITS.androidBytes) {
    throw pushErrors.tooBig(`message exceeds ${PUSH_LIMITS.androidBytes} bytes`)
  }
  // The `"ios":{…}` member, key included.
  if (notification?.ios && size(notification.ios) + 6 > PUSH_LIMITS.iosBytes) {
    throw pushErrors.tooBig(`ios notification exceeds ${PUSH_LIMITS.iosBytes} bytes`)
  }
  // Only a winphone object the caller wrote: the legacy platform should not cap everyone's alert.
  if (explicitWinphone && notification?.winphone && size(notification.winphone) > PUSH_LIMITS.winphoneBytes) {
    throw pushErrors.tooBig(`winphone notification exceeds ${PUSH_LIMITS.winphoneBytes} bytes`)
  }
  if (liveActivity && size(liveActivity.ios) + 6 > PUSH_LIMITS.liveActivityBytes) {
    throw pushErrors.tooBig(`live_activity exceeds ${PUSH_LIMITS.liveActivityBytes} bytes`)
  }
}

/** live_activity (§5.5): an `ios` object with event, content-state, attributes-type on start. */
export function parseLiveActivity(value: unknown): Json {
  if (!isObject(value)) throw pushErrors.invalid('live_activity must be an object')
  const ios = value.ios
  if (ios === undefined || ios === null) throw pushErrors.missing('live_activity.ios')
  if (!isObject(ios)) throw pushErrors.invalid('live_activity.ios must be an object')
  if (!['start', 'update', 'end'].includes(ios.event as string))
    throw pushErrors.invalid('live_activity.ios.event is invalid')
  if (ios['content-state'] === undefined) throw pushErrors.missing('live_activity.ios.content-state')
  if (!isObject(ios['content-state'])) throw pushErrors.invalid('live_activity.ios.content-state is invalid')
  if (ios.event === 'start' && typeof ios['attributes-type'] !== 'string') {
    throw pushErrors.missing('live_activity.ios.attributes-type')
  }
  return value
}
