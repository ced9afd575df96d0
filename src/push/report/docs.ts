import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { reportErrors as e } from '../errors.js'
import { USERS_LIMITS } from './periods.js'

// The report host (jpush-api.md §6): counters are numbers, or null where the push had no target
// of that kind; vendor-channel and click counters are always null or 0 here.

const msgIds = z.object({
  msg_ids: z
    .string()
    .describe(
      'Comma-separated, at most 100 (repeated keys too); absent: the latest push (jpush-async drops it).',
    )
    .optional(),
})
const count = z.int().nullable()
const counters = (keys: string[]) => z.object(Object.fromEntries(keys.map(k => [k, count])))
const openObject = z.record(z.string(), z.unknown())
const badIds = e.invalid('msg_ids is invalid')

export const receivedDocs: RouteDocs = {
  summary: 'Delivery counts per push (jpush-api.md §6.1)',
  querystring: msgIds,
  answers: {
    200: z.array(
      z
        .object({ msg_id: z.string() })
        .extend(
          counters([
            'android_received',
            'ios_apns_sent',
            'ios_apns_received',
            'ios_msg_received',
            'wp_mpns_sent',
          ]).shape,
        ),
    ),
  },
  errors: [badIds],
}

export const receivedDetailDocs: RouteDocs = {
  summary: 'Delivery counts per push and channel (jpush-api.md §6.1)',
  querystring: msgIds,
  answers: {
    200: z.array(
      z
        .object({ msg_id: z.string() })
        .catchall(count)
        .describe('`jpush_received`, `ios_apns_sent`, `hmos_msg_received`…'),
    ),
  },
  errors: [badIds],
}

export const messagesDocs: RouteDocs = {
  summary: 'Statistics per push and platform (jpush-api.md §6.3)',
  querystring: msgIds,
  answers: {
    200: z.array(
      z.object({ msg_id: z.string(), android: openObject, ios: openObject, winphone: openObject }),
    ),
  },
  errors: [badIds],
}

export const messagesDetailDocs: RouteDocs = {
  summary: 'Statistics per push, kind and channel (jpush-api.md §6.4)',
  querystring: msgIds,
  answers: {
    200: z.array(
      z.object({
        msg_id: z.string(),
        details: openObject.describe('notification, message, inapp, live_activity: target, sent, received…'),
        jpush: openObject,
        android_pns: openObject,
        ios: openObject,
        winphone: openObject,
        quickapp_jpush: openObject,
        quickapp_pns: openObject,
      }),
    ),
  },
  errors: [badIds],
}

export const messageStatusDocs: RouteDocs = {
  summary: 'Whether a push reached each device (jpush-api.md §6.2)',
  body: z.object({
    msg_id: z.union([z.string(), z.int()]).describe('17 digits, as a string or a bare number.'),
    registration_ids: z.array(z.string()).min(1).max(1000),
    date: z.string().describe('yyyy-mm-dd; default: today on the app clock.').optional(),
  }),
  answers: {
    200: z.record(
      z.string(),
      z.object({
        status: z.int().describe('0 delivered, 1 not delivered, 2 not a device of the app, 3 not a target.'),
      }),
    ),
  },
  errors: [
    e.invalid('msg_id is invalid'),
    e.invalid('registration_ids is invalid'),
    e.invalid('date is invalid'),
  ],
}

const users = z.object({ new: z.int(), online: z.int(), active: z.int() }).partial()

export const usersDocs: RouteDocs = {
  summary: 'Devices new, online and active, per period and platform (jpush-api.md §6.5)',
  description:
    "From what the app's devices did: registered in the period, online at some moment of it, " +
    'received or opened a push in it. A counter or platform with nothing to count is left out. ' +
    'Without any of the three parameters (jpush-async sends none): today, by day. Also at ' +
    '`/v3/report/users` (the Beijing data centre, jpush-api.md §1.1).',
  querystring: z.object({
    time_unit: z.string().describe('`HOUR`, `DAY` or `MONTH`, in any case.'),
    start: z.string().describe('`yyyy-MM-dd HH`, `yyyy-MM-dd` or `yyyy-MM`, as the unit says; Beijing time.'),
    duration: z
      .string()
      .describe(
        `Periods: HOUR at most ${USERS_LIMITS.HOUR} and within the start's day, DAY at most ${USERS_LIMITS.DAY}, MONTH at most ${USERS_LIMITS.MONTH}.`,
      ),
  }),
  answers: {
    200: z.object({
      time_unit: z.enum(['HOUR', 'DAY', 'MONTH']),
      start: z.string(),
      duration: z.int().describe("As asked; HOUR's capped at 24."),
      items: z.array(
        z.object({
          time: z.string(),
          android: users.optional(),
          ios: users.optional(),
          quickapp: users.optional(),
          hmos: users.optional(),
        }),
      ),
    }),
  },
  errors: [
    e.invalid('time_unit must be HOUR, DAY or MONTH'),
    e.invalid('start is required'),
    e.timeUnitMismatch(),
    e.invalid('duration must be a whole number of at least 1'),
    e.tooFarBack(),
  ],
}
