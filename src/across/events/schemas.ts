import { z } from 'zod'
import { items } from '../../items/items.js'
import { pushDeviceSchemas } from '../../push/device/index.js'
import { pushScheduleSchemas as pushSchedules } from '../../push/schedules/index.js'
import { clickSchemas as clicks, pushSendItems } from '../../push/send/index.js'
import { reportItems } from '../../sms/reports/index.js'
import { smsScheduleSchemas as smsSchedules } from '../../sms/schedules/index.js'
import { sendingItems } from '../../sms/sending/index.js'
import { reviewableSchemas as reviewables } from '../../sms/templates/index.js'
import type { EventType } from '../../store/events/log.js'
import { appView } from '../app/view.js'
import { schemas as clock } from '../clock.js'
import { armed } from '../faults/routes.js'

// What each event's `data` is (GET /_sandbox/events, as a list or as Server-Sent Events): the item
// its list shows or the answer of the endpoint that made it, by the same zod schemas. The stream
// sends the data as stored, so these describe it in the OpenAPI document (a generated client's
// event types come from there) and are not applied to it.

const template = reviewables.templates.shape.templates.element
const sign = reviewables.signs.shape.signs.element
const smsSchedule = smsSchedules.schedules.shape.schedules.element
const pushSchedule = pushSchedules.schedules.shape.schedules.element
const error = z.object({ code: z.number(), message: z.string() })
const scheduleAction = z.enum(['created', 'updated', 'deleted'])
const reviewAction = z.enum(['created', 'modified', 'deleted'])

export const eventData = {
  'sms.sent': sendingItems.message,
  'sms.report': reportItems.report,
  'sms.reply': reportItems.reply,
  'push.delivered': pushSendItems.push,
  'push.clicked': clicks.clicked,
  /** The callback as it stands after the attempt. */
  'callback.attempt': items.callback,
  /** A template or signature approved (1) or rejected (2), by the clock or the reviewer. */
  'review.decided': z.object({
    kind: z.enum(['template', 'sign']),
    temp_id: z.number().optional(),
    sign_id: z.number().optional(),
    status: z.union([z.literal(1), z.literal(2)]),
    refuse_reason: z.string().nullable(),
    decided_at: z.string(),
  }),
  /** An occurrence of a task: an SMS one's counts, or a push one's msg_id or error. */
  'schedule.fired': z.union([
    z.object({
      api: z.literal('sms'),
      schedule_id: z.string(),
      fired_at: z.string(),
      sent: z.number(),
      failed: z.number(),
    }),
    z.object({
      api: z.literal('push'),
      schedule_id: z.string(),
      fired_at: z.string(),
      msg_id: z.string().nullable(),
      error: error.nullable(),
    }),
  ]),
  'clock.moved': clock.clock,
  /** The app as GET /_sandbox/app shows it, without its developer's secret (issue 33). */
  'app.reset': appView.extend({ developer: appView.shape.developer.omit({ dev_secret: true }) }),
  'app.changed': appView.extend({ developer: appView.shape.developer.omit({ dev_secret: true }) }),
  'request.completed': items.request,
  /** A push accepted, whoever it reached (each device that gets it: push.delivered). */
  'push.sent': pushSendItems.pushSent,
  /** POST /v1/codes/{msg_id}/valid answered, right or not. */
  'code.verified': z.object({
    msg_id: z.string(),
    mobile: z.string(),
    is_valid: z.boolean(),
    /** The refusal (50010 wrong code, 50011 expired, 50012 verified before); null when valid. */
    error: error.nullable(),
    /** When the code was verified (now, or before for 50012); null while it never was. */
    verified_at: z.string().nullable(),
    expires_at: z.string(),
    checked_at: z.string(),
  }),
  /** The template as GET /_sandbox/sms/templates lists it after the change; null when deleted. */
  'template.changed': z.object({ action: reviewAction, temp_id: z.number(), template: template.nullable() }),
  'sign.changed': z.object({ action: reviewAction, sign_id: z.number(), sign: sign.nullable() }),
  'schedule.changed': z.union([
    z.object({
      api: z.literal('sms'),
      action: scheduleAction,
      schedule_id: z.string(),
      schedule: smsSchedule.nullable(),
    }),
    z.object({
      api: z.literal('push'),
      action: scheduleAction,
      schedule_id: z.string(),
      schedule: pushSchedule.nullable(),
    }),
  ]),
  /**
   * One device changed, or (`registration_id: null`, `count`) more than 100 in one request (a tag
   * or alias of many devices): the list is then to be read again.
   */
  'device.changed': z.object({
    action: z.enum(['registered', 'updated', 'online', 'offline', 'deleted']),
    registration_id: z.string().nullable(),
    device: pushDeviceSchemas.device.nullable(),
    count: z.number().optional(),
  }),
  'fault.changed': z.object({
    action: z.enum(['armed', 'disarmed', 'used']),
    /** null when every fault was disarmed. */
    fault: armed.nullable(),
    /** How many are armed now. */
    faults: z.number(),
  }),
} satisfies Record<EventType, z.ZodType>

/**
 * The events as the list answers them, in JSON Schema: each by its `type`, what its `data` is
 * (documentation: the data goes out as stored, never filtered by these, so objects are not closed:
 * `io: 'input'`). A getter: made when the document is, not at every start.
 */
export const eventListDoc = {
  get items() {
    return {
      oneOf: Object.entries(eventData).map(([type, data]) => {
        const { $schema: _, ...schema } = z.toJSONSchema(data, { io: 'input', unrepresentable: 'any' })
        return {
          type: 'object',
          required: ['seq', 'type', 'data'],
          properties: { seq: { type: 'number' }, type: { type: 'string', const: type }, data: schema },
        }
      }),
    }
  },
}
