import { z } from 'zod'
import type { RouteDocs } from '../../openapi/route-docs.js'
import { pushErrors as e } from '../errors.js'
import { BATCH_LIMITS } from '../limits.js'
import { pushBody, pushChecks, sent } from './docs.js'

// The push host's other endpoints (jpush-api.md §5.14): batch single push, group push, withdraw,
// vendor quota. A batch or group answer is 200 with one entry per push, each its own success or
// its own error body; only what is wrong with the whole request is the request's failure.

const error = z.object({ code: z.int(), message: z.string() })
const refused = z.object({ error }).describe('This push was refused: its /v3/push error.')
const nobody = z
  .object({ msg_id: z.string(), error })
  .describe('Accepted, but nobody matched (1011): the msg_id was allocated, as on /v3/push.')

const entry = pushBody.omit({ audience: true, cid: true }).extend({
  target: z
    .union([z.string(), z.number()])
    .describe('The one registration_id (regid) or alias (alias) this push goes to.'),
  audience: z
    .record(z.string(), z.array(z.string()))
    .describe(
      "Read only without `target`: the java client's audience of one registration_id or alias; otherwise ignored.",
    )
    .optional(),
})

export const batchDocs: RouteDocs = {
  summary: 'Push one message per cid, each to one device or alias (jpush-api.md §5.14)',
  description:
    'Each entry is read, checked and delivered on its own as a /v3/push would be, its key as its ' +
    '`cid` (a cid already used answers its first result). An entry that fails is only its own ' +
    'entry of the answer: `{"error"}`, or `{"msg_id","error"}` when nobody matched. A body\'s ' +
    `limit is ${BATCH_LIMITS.bodyBytes / 1024 / 1024} MiB. Batch push is VIP-only at the vendor; the sandbox lets every app use it.`,
  body: z.object({
    pushlist: z
      .record(z.string().describe('A cid of the app: `<appKey>-<uuid>` (GET /v3/push/cid).'), entry)
      .describe(`1 to ${BATCH_LIMITS.entries} pushes keyed by cid.`),
  }),
  answers: {
    200: z
      .record(z.string(), z.union([z.object({ msg_id: z.string() }), nobody, refused]))
      .describe('Each cid of the pushlist and what became of its push.'),
  },
  errors: [
    e.missing('pushlist'),
    e.invalid('pushlist must be an object keyed by cid'),
    e.invalid('pushlist is empty'),
    e.invalid(`pushlist has more than ${BATCH_LIMITS.entries} entries`),
  ],
}

export const groupPushDocs: RouteDocs = {
  summary: 'Push to every app of a group (jpush-api.md §5.14)',
  description:
    'Credentials `group-<groupKey>:<groupMasterSecret>`: the apps whose settings name that group ' +
    '(the seed file, or `PUT /_sandbox/push/group`). Each member pushes the body on its own: its ' +
    'devices, limits, statistics and clock. What refuses one member (its standing, its rate window, ' +
    'its broadcasts, nobody matched) is only its entry of the answer; a `cid` is dropped (it names one app), ' +
    '`options.override_msg_id` is refused.',
  body: pushBody.omit({ cid: true }),
  answers: {
    200: z
      .object({ group_msgid: z.string().describe("The group's own msg_id.") })
      .catchall(z.union([sent, nobody, refused]))
      .describe('`group_msgid`, then one entry per member app, keyed by its appKey.'),
  },
  errors: [
    e.invalid('override_msg_id is not supported by group push'),
    ...pushChecks.required,
    ...pushChecks.audience,
    ...pushChecks.content,
  ],
}

export const withdrawDocs: RouteDocs = {
  summary: 'Withdraw a push (jpush-api.md §5.14)',
  description:
    'What still waited for a device (offline within `time_to_live`, an SMS fallback not yet due) ' +
    'never arrives; what had arrived is marked withdrawn in `GET /_sandbox/push/messages`. Within a ' +
    'day of the push; withdrawing again is no error. Another app’s msg_id is one this app never pushed.',
  params: z.object({ msg_id: z.string().describe('The msg_id /v3/push answered.') }),
  answers: { 200: z.object({}).describe('Done: `{}` (an empty 200 hangs jpush-async).') },
  errors: [
    e.invalid('msg_id 18100000000000099 does not exist'),
    e.invalid('msg_id 18100000000000001 is older than one day and cannot be withdrawn'),
  ],
}

const used = z.object({
  total: z.int().describe('-1: unlimited.'),
  used: z.int().describe('-1: unlimited.'),
})
const vendor = z.object({ system: used, operation: used })

export const quotaDocs: RouteDocs = {
  summary: "The vendor channels' daily quotas (jpush-api.md §5.14)",
  description:
    'The flat `code`/`message`/`data` shape. The sandbox has no vendor channels: the values are the ' +
    "app's `settings.quota` (seed file or `PATCH /_sandbox/app`), -1 for what it leaves out.",
  answers: {
    200: z.object({
      code: z.literal(0),
      message: z.literal('success'),
      data: z.object({ xiaomi_quota: vendor, oppo_quota: vendor, vivo_quota: vendor }),
    }),
  },
}
