import type { EventData, ItemOf } from './wire.js'

// What the change events carry (issue 21: every view of the UI live): the items of the control
// plane's lists of what an app configures, and each event's data, all read out of the generated
// description (openapi.ts: the GET /_sandbox/events answer says each type's data, from the
// server's src/sandbox/event-schemas.ts).

/** A template as GET /_sandbox/sms/templates lists it: status 0 under review, 1 approved, 2 rejected. */
export type Template = ItemOf<'getSandboxSmsTemplates', 'templates'>

/** A signature as GET /_sandbox/sms/signs lists it. */
export type Sign = ItemOf<'getSandboxSmsSigns', 'signs'>

/** An SMS task as GET /_sandbox/sms/schedules lists it. */
export type SmsSchedule = ItemOf<'getSandboxSmsSchedules', 'schedules'>

/** A JPush task as GET /_sandbox/push/schedules lists it. */
export type PushSchedule = ItemOf<'getSandboxPushSchedules', 'schedules'>

/** An accepted push as the app sent it (`push.sent`), whether or not it reached a device. */
export type PushSent = EventData<'push.sent'>

/** POST /v1/codes/{msg_id}/valid answered, right or not (`code.verified`). */
export type CodeVerified = EventData<'code.verified'>

/** A template created, modified or deleted (then `template: null`). */
export type TemplateChanged = EventData<'template.changed'>

export type SignChanged = EventData<'sign.changed'>

/** An SMS task (`api: "sms"`) or a JPush one changed; its item as its list shows it. */
export type ScheduleChanged = EventData<'schedule.changed'>

/**
 * One device changed, or (`registration_id: null`, `count`) more than 100 in one request (a tag
 * or alias of many devices): the list is then to be read again.
 */
export type DeviceChanged = EventData<'device.changed'>

/** A fault armed, disarmed (`fault: null`: all of them) or used; `faults`: how many are armed now. */
export type FaultChanged = EventData<'fault.changed'>
