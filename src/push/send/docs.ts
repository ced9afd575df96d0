import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { pushErrors as e } from '../errors.js'

// The push host (jpush-api.md §5): what a push takes is deep and open (the clients add keys of
// their own), so the document names the top-level keys and the audience, and points to §5.

const platform = z
  .union([z.literal('all'), z.array(z.enum(['android', 'ios', 'quickapp', 'hmos', 'winphone']))])
  .describe('"all" or the platforms to reach.')
const selectors = z
  .object({
    tag: z.array(z.string()).max(20),
    tag_and: z.array(z.string()).max(20),
    tag_not: z.array(z.string()).max(20),
    alias: z.array(z.string()).max(1000),
    registration_id: z.array(z.string()).max(1000),
    segment: z.array(z.string()).max(1),
    abtest: z.array(z.string()).max(1),
    live_activity_id: z.string(),
  })
  .partial()
  .describe('Selectors, ANDed between keys, ORed within one (jpush-api.md §5.2).')
const open = (what: string) => z.record(z.string(), z.unknown()).describe(what)

/** A /v3/push body; the other push endpoints (batch, group, file, schedules) start from it. */
export const pushBody = z.object({
  platform,
  audience: z.union([z.literal('all'), selectors]),
  notification: open(
    '`alert` and per-platform objects: android, ios, hmos, quickapp, winphone, voip (§5.3).',
  ).optional(),
  message: open('A custom message: `msg_content` (required), title, content_type, extras (§5.4).').optional(),
  live_activity: open('iOS live activity (§5.5); not routed to devices here.').optional(),
  inapp_message: open('`{"inapp_message": true}`, with a notification.').optional(),
  notification_3rd: open('Vendor notification for a custom message.').optional(),
  sms_message: z
    .object({
      delay_time: z
        .int()
        .min(0)
        .max(86400)
        .describe('Seconds; texts if the push has not arrived by then; 0: at once.'),
      temp_id: z.int(),
      temp_para: z.record(z.string(), z.unknown()).optional(),
      signid: z.int().optional(),
      content: z.string().max(480).describe('Legacy text instead of a template.').optional(),
    })
    .describe("SMS fallback to the device's mobile through the app's JSMS side (§5.6).")
    .optional(),
  options: z
    .object({
      sendno: z.int().describe('Echoed back as a string.'),
      time_to_live: z
        .int()
        .describe('Seconds an offline device may still receive it; default 86400; 0: online only.'),
      override_msg_id: z
        .union([z.string(), z.int()])
        .describe('A 17-digit msg_id, as a string or a bare number.'),
      apns_production: z.boolean(),
      apns_collapse_id: z.string().max(64),
      big_push_duration: z.int().max(1400),
      classification: z.int(),
    })
    .partial()
    .catchall(z.unknown())
    .describe('§5.7; other keys the clients send are accepted.')
    .optional(),
  callback: z
    .object({
      url: z.string().describe("http(s); absent: the app's callback_url.").optional(),
      params: z.record(z.string(), z.unknown()).describe('Echoed in each callback.').optional(),
      type: z
        .int()
        .min(1)
        .max(15)
        .describe('Bits: 1 delivered, 2 clicked, 4 not delivered, 8 push succeeded; default 3.')
        .optional(),
    })
    .describe('The events the sandbox POSTs to `url` (see GET /_sandbox/callbacks).')
    .optional(),
  cid: z
    .string()
    .describe('`<appKey>-<uuid>` from GET /v3/push/cid: a repeat returns the first answer.')
    .optional(),
})

export const sent = z.object({
  sendno: z.string().describe('options.sendno as a string, "0" without one.'),
  msg_id: z.string().describe('17 digits: more than a JSON number keeps, so a string.'),
})

/** §5.11, in the order a push is checked; 1003 has many messages, one shown per cause. */
export const pushChecks = {
  required: [e.missing('platform'), e.missing('audience'), e.missing('notification or message')],
  audience: [
    e.invalid('The registration_id 1a0018970a8b0fd6c0e_x is invalid!'),
    e.invalid('audience has no target'),
  ],
  content: [
    e.invalid("'time_to_live' value is invalid."),
    e.invalid('callback.url is invalid'),
    e.tooBig('ios notification exceeds 2000 bytes'),
    e.unsupportedKey('content_available'),
  ],
  /** Found when it is accepted: an override_msg_id the app did not push in the last day. */
  accepted: [e.invalid("'override_msg_id' value is invalid.")],
}
const checks = [...pushChecks.required, ...pushChecks.audience, ...pushChecks.content, ...pushChecks.accepted]

export const pushDocs: RouteDocs = {
  summary: 'Push a notification or message (jpush-api.md §5)',
  description:
    'Delivered at once to online devices, to offline ones when they come online within ' +
    '`time_to_live`. See what each device received with `GET /_sandbox/push/messages`.',
  body: pushBody,
  answers: { 200: sent },
  errors: [...checks, e.noTarget('18100000000000001'), e.broadcastLimit()],
}

export const validateDocs: RouteDocs = {
  summary: 'Check a push without delivering it (jpush-api.md §5)',
  description:
    'The same checks and a real msg_id; a broadcast is refused once today’s are used up, but uses none.',
  body: pushBody,
  answers: { 200: sent },
  errors: [...checks, e.noTarget('18100000000000001'), e.broadcastLimit()],
}

export const cidDocs: RouteDocs = {
  summary: 'Get cids for idempotent pushes (jpush-api.md §5.10)',
  querystring: z.object({
    count: z.int().min(1).max(1000).describe('Default 1.').optional(),
    type: z.enum(['push', 'schedule']).optional(),
  }),
  answers: { 200: z.object({ cidlist: z.array(z.string()).describe('`<appKey>-<uuid>`, good for a day.') }) },
  errors: [e.invalid('count is invalid'), e.invalid('type is invalid')],
}
