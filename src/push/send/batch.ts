import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { advise } from '../../advisor/advice.js'
import { audienceRules } from '../../advisor/audience.js'
import type { Clock } from '../../clock.js'
import type { PipelineDeps } from '../../deps.js'
import { type ApiError, isApiError } from '../../errors.js'
import { part } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Store } from '../../store/index.js'
import { type Tenant, tenantOf } from '../../tenancy.js'
import { pushErrors as e } from '../errors.js'
import { BATCH_LIMITS } from '../limits.js'
import { isObject, type Json, scalarText } from '../values.js'
import type { Audience } from './audience.js'
import { dispatchPush, newPushMsgId, type PushOrigin, sendPush } from './delivery/dispatch.js'
import { fileAudience, readFileAudience } from './file-audience.js'
import { type PushRequest, parsePush, payload, sent, strictness } from './payload.js'
import { isSm2, parseSm2Push, sm2Errors } from './sm2.js'

// Many pushes in one request (jpush-api.md §5.14): batch single push, up to 1000 pushes keyed by
// their cid, each to one device or alias; group push, one body pushed by every app of a group.
// Each push is read, checked and delivered on its own as a /v3/push would be, and what refuses it
// is only its entry of the answer (200): `{"error"}`, or `{"msg_id","error"}` when nobody matched.
// Only what is wrong with the whole request is the request's failure.

const error = z.object({ code: z.int(), message: z.string() })
const refused = z.object({ error }).describe('This push was refused: its /v3/push error.')
const nobody = z
  .object({ msg_id: z.string(), error })
  .describe('Accepted, but nobody matched (1011): the msg_id was allocated, as on /v3/push.')

/** What refuses one push of a batch or group: its entry of the answer. */
type Refusal = z.input<typeof nobody> | z.input<typeof refused>

/** A refusal as its entry: the error, with its extra fields (1011's msg_id). */
const entryOf = (err: ApiError) => err.toBody() as Refusal

/**
 * One push of a batch or a group push, in its own savepoint inside the caller's write job, so its
 * failure is only its entry: `{"error":…}` for a refusal, `{"msg_id":…,"error":…}` when nobody
 * matched (the id was allocated, as for /v3/push), `success(outcome)` otherwise.
 */
function pushOne<Success>(
  deps: PipelineDeps,
  req: FastifyRequest,
  push: PushRequest,
  success: (outcome: { msgId: string; sendno: string }) => Success,
): Success | Refusal {
  try {
    const outcome = deps.store.transaction(() => dispatchPush(deps, req.tenant, push, false))
    if (outcome.noTarget) return entryOf(outcome.noTarget)
    // Whom this entry's push reached: warnings of the one request (advisor/audience.ts).
    if (outcome.seen) advise(req, deps.config, audienceRules, outcome.seen)
    return success(outcome)
  } catch (err) {
    if (isApiError(err)) return entryOf(err)
    throw err
  }
}

/** A group member's push, made as /v3/push makes it (in slices if large): its entry of the answer. */
async function pushMember(
  deps: PipelineDeps,
  req: FastifyRequest,
  tenant: Tenant,
  push: PushRequest,
  origin: PushOrigin,
): Promise<z.input<typeof sent> | Refusal> {
  try {
    const outcome = await sendPush(deps, tenant, push, false, origin)
    if (outcome.noTarget) return entryOf(outcome.noTarget)
    // Whom this member's push reached (a sample when sliced): warnings of the group's request.
    if (outcome.seen) advise(req, deps.config, audienceRules, outcome.seen)
    return { msg_id: outcome.msgId, sendno: outcome.sendno }
  } catch (err) {
    if (isApiError(err)) return entryOf(err)
    throw err
  }
}

/** Pushes of a batch written per write job: a batch of 1000 would hold the event loop ~50 ms. */
const ENTRIES_PER_JOB = 100

/** An entry's push as read, or its refusal as its answer when it cannot be read. */
function readEntry(read: () => PushRequest): { push: PushRequest } | { answer: Refusal } {
  try {
    return { push: read() }
  } catch (err) {
    if (isApiError(err)) return { answer: entryOf(err) }
    throw err
  }
}

// Batch single push: POST /v3/push/batch/regid/single and /v3/push/batch/alias/single.

const KINDS = { regid: 'registration_id', alias: 'alias' } as const
type Kind = keyof typeof KINDS

/**
 * The java client (PushClient.batchSendPush) sends each entry as a whole PushPayload: no `target`,
 * an `audience` of one registration_id (or alias). That one value is taken as the target.
 */
function audienceTarget(audience: unknown, key: string): unknown {
  const values = isObject(audience) ? audience[key] : undefined
  return Array.isArray(values) && values.length === 1 ? values[0] : undefined
}

/**
 * One entry as the body of a push: its `target` as the audience, its key as the cid (so a cid
 * already used returns that first result, as on /v3/push). Any other `audience` is ignored.
 */
function entryBody(item: unknown, cid: string, kind: Kind): unknown {
  if (!isObject(item)) throw e.invalid('a pushlist entry must be an object')
  if (item.platform === undefined || item.platform === null) throw e.missing('platform')
  const given = item.target ?? audienceTarget(item.audience, KINDS[kind])
  if (given === undefined || given === null) throw e.missing('target')
  const target = scalarText(given)
  if (target === undefined) throw e.invalid('target is invalid')
  return { ...item, audience: { [KINDS[kind]]: [target] }, cid }
}

const entry = payload()
  .schema.omit({ audience: true, cid: true })
  .extend({
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

/** The `pushlist`: what is wrong with it is the whole request's error; each entry read on its own. */
const pushlist = (kind: Kind) =>
  part({
    in: 'body',
    read(req) {
      const body = req.body
      if (!isObject(body) || body.pushlist === undefined || body.pushlist === null)
        throw e.missing('pushlist')
      if (!isObject(body.pushlist)) throw e.invalid('pushlist must be an object keyed by cid')
      const size = Object.keys(body.pushlist).length
      if (size === 0) throw e.invalid('pushlist is empty')
      if (size > BATCH_LIMITS.entries)
        throw e.invalid(`pushlist has more than ${BATCH_LIMITS.entries} entries`)
      const { appKey, settings } = req.tenant.app
      return Object.entries(body.pushlist).map(
        ([cid, item]) =>
          [
            cid,
            readEntry(() => parsePush(entryBody(item, cid, kind), appKey, undefined, strictness(settings))),
          ] as const,
      )
    },
    schema: z.object({
      pushlist: z
        .record(z.string().describe('A cid of the app: `<appKey>-<uuid>` (GET /v3/push/cid).'), entry)
        .describe(`1 to ${BATCH_LIMITS.entries} pushes keyed by cid.`),
    }),
    errors: [
      e.missing('pushlist'),
      e.invalid('pushlist must be an object keyed by cid'),
      e.invalid('pushlist is empty'),
      e.invalid(`pushlist has more than ${BATCH_LIMITS.entries} entries`),
    ],
    limit: BATCH_LIMITS.bodyBytes,
  })

// Group push: POST /v3/grouppush, with a group's credentials (http/auth/group-auth.ts): the same
// body as /v3/push, pushed by every member app on its own (its devices, its limits, its
// statistics, its clock). The answer is {"group_msgid", "<appKey>": {"msg_id","sendno"} or
// {"error"} (or {"msg_id","error"} when nobody matched)}, in appKey order.

/** The body as each member pushes it: a cid names one app (`<appkey>-<uuid>`), so it cannot apply. */
function withoutCid(body: Json): Json {
  const { cid: _, ...rest } = body
  return rest
}

/**
 * A group push body, read once for every member (what is wrong with it is wrong for all: the
 * request's own error). "override_msg_id is not supported" by group push (docs2019): refused, not
 * ignored.
 */
function readGroupPush(
  raw: unknown,
  { appKey, settings }: { appKey: string; settings: Record<string, unknown> },
  readAudience?: (value: unknown) => Audience,
  encrypted = false,
): PushRequest {
  // GroupPushClient.java:69-82: with encrypt.type=SM2 the group push is sent encrypted (sm2.ts).
  if (encrypted) return parseSm2Push(raw, readAudience)
  if (isObject(raw) && isObject(raw.options) && raw.options.override_msg_id != null)
    throw e.invalid('override_msg_id is not supported by group push')
  // One reading for all: the first member's strictness (members of a group are usually alike).
  return parsePush(isObject(raw) ? withoutCid(raw) : raw, appKey, readAudience, strictness(settings))
}

const groupPayload = payload({ cid: false })
const groupBody = part({
  in: 'body',
  read: req => readGroupPush(req.body, req.group!.members[0]!.tenant.app, undefined, isSm2(req)),
  schema: groupPayload.schema,
  errors: [e.invalid('override_msg_id is not supported by group push'), ...groupPayload.errors, ...sm2Errors],
  // Refused whatever its value: no override_msg_id needs reading exactly.
})

/**
 * Group file push, POST /v3/grouppush/file (cav gpush/v3_send_by_file.go): a group push whose
 * audience is `{"file":{"file_id"}}`, a file one of the member apps uploaded (its file_id begins
 * with that app's appKey). Its aliases go to every member as they are; its registration_ids to
 * each member are those that member has. Read inside the write that pushes, at the file owner's now.
 */
const groupFilePayload = payload({ audience: fileAudience, cid: false })
const groupFileBody = part({
  in: 'body',
  read: (req, { store, clock }: { store: Store; clock: Clock }) => {
    const members = req.group!.members
    /** A file of a member app, or one its developer uploaded with devKey:devSecret (files.ts). */
    const fileOf = (id: string) => {
      const owner = members.find(m => id.startsWith(`${m.tenant.app.appKey}-`))?.tenant
      if (owner) return store.pushFiles.get(owner.app.appKey, id, owner.now())
      const devKey = members.find(m => id.startsWith(`${m.tenant.app.devKey}-`))?.tenant.app.devKey
      const holder = devKey === undefined ? undefined : store.pushGroups.holderOf(devKey)
      const app = holder === undefined ? undefined : store.apps.get(holder)
      return app && store.pushFiles.get(app.appKey, id, tenantOf(clock, app).now())
    }
    return readGroupPush(
      req.body,
      members[0]!.tenant.app,
      value =>
        readFileAudience(value, id => {
          const file = fileOf(id)
          if (!file) return undefined
          return file.type === 'alias' ? { alias: file.entries } : { registration_id: file.entries }
        }),
      isSm2(req),
    )
  },
  schema: groupFilePayload.schema,
  errors: [
    e.invalid('override_msg_id is not supported by group push'),
    ...groupFilePayload.errors,
    ...sm2Errors,
  ],
})

/** The push as one member makes it: a file's registration_ids are narrowed to the member's devices. */
function forMember(push: PushRequest, store: Store, appKey: string): PushRequest {
  const { audience } = push
  if (audience === 'all' || audience.registration_id === undefined) return push
  const mine = audience.registration_id.filter(rid => store.pushDevices.get(appKey, rid))
  return { ...push, audience: { ...audience, registration_id: mine } }
}

const batchAnswer = z
  .record(z.string(), z.union([z.object({ msg_id: z.string() }), nobody, refused]))
  .describe('Each cid of the pushlist and what became of its push.')
const groupAnswer = z
  .object({ group_msgid: z.string().describe("The group's own msg_id.") })
  .catchall(z.union([sent, nobody, refused]))
  .describe('`group_msgid`, then one entry per member app, keyed by its appKey.')

export function batchRoutes(deps: PipelineDeps): RouteSpec[] {
  const batch = (kind: Kind) =>
    vendorRoute({
      method: 'POST',
      url: `/push/batch/${kind}/single`,
      summary: 'Push one message per cid, each to one device or alias (jpush-api.md §5.14)',
      description:
        'Each entry is read, checked and delivered on its own as a /v3/push would be, its key as its ' +
        '`cid` (a cid already used answers its first result). An entry that fails is only its own ' +
        'entry of the answer: `{"error"}`, or `{"msg_id","error"}` when nobody matched. A body\'s ' +
        `limit is ${BATCH_LIMITS.bodyBytes / 1024 / 1024} MiB. Batch push is VIP-only at the vendor; the sandbox lets every app use it.`,
      reads: { body: pushlist(kind) },
      answer: batchAnswer,
      // Each entry is a push of its own, whose failure is only its entry: written a hundred to
      // a job, so that other requests run between them.
      handler: async (req, { body: entries }) => {
        const answer: z.input<typeof batchAnswer> = {}
        for (let i = 0; i < entries.length; i += ENTRIES_PER_JOB) {
          const part = await deps.store.write(() =>
            entries
              .slice(i, i + ENTRIES_PER_JOB)
              .map(
                ([cid, read]) =>
                  [
                    cid,
                    'answer' in read
                      ? read.answer
                      : pushOne(deps, req, read.push, ({ msgId }) => ({ msg_id: msgId })),
                  ] as const,
              ),
          )
          for (const [cid, entry] of part) answer[cid] = entry
        }
        return answer
      },
    })
  return [
    batch('regid'),
    batch('alias'),
    vendorRoute({
      method: 'POST',
      url: '/grouppush',
      summary: 'Push to every app of a group (jpush-api.md §5.14)',
      description:
        'Credentials `group-<groupKey>:<groupMasterSecret>`: the apps whose settings name that group ' +
        '(the seed file, or `PUT /_sandbox/push/group`). Each member pushes the body on its own: its ' +
        'devices, limits, statistics and clock. What refuses one member (its standing, its rate window, ' +
        'its broadcasts, nobody matched) is only its entry of the answer; a `cid` is dropped (it names one app), ' +
        '`options.override_msg_id` is refused.',
      config: { auth: 'group' },
      reads: { body: groupBody },
      answer: groupAnswer,
      handler: async (req, { body: push }) => groupPush(req, () => push),
    }),
    vendorRoute({
      method: 'POST',
      url: '/grouppush/file',
      summary:
        'Push to the aliases or registration_ids of a file, through every app of a group (docs/jpush-wire.md)',
      description:
        'A /v3/grouppush whose audience is `{"file":{"file_id"}}`: a file one member app uploaded ' +
        '(POST /v3/files/…). Its aliases go to every member; its registration_ids to each member are those it has. ' +
        'The answer is the group push’s.',
      config: { auth: 'group' },
      checks: [groupFileBody],
      answer: groupAnswer,
      handler: async req => {
        const push = groupFileBody.read(req, deps)
        return groupPush(req, appKey => forMember(push, deps.store, appKey))
      },
    }),
  ]

  /**
   * The group's msg_id, then each member's push (`pushOf` its appKey) as a /v3/push of its own,
   * recorded as that group push's part: a member with a large audience goes in slices (slices.ts).
   * Its own id first, as the service answers.
   */
  async function groupPush(req: FastifyRequest, pushOf: (appKey: string) => PushRequest) {
    const groupMsgId = await deps.store.write(() => newPushMsgId(deps.store))
    const entries: Record<string, z.input<typeof sent> | Refusal> = {}
    for (const { tenant, refusal } of req.group!.members) {
      const { appKey } = tenant.app
      entries[appKey] = refusal
        ? entryOf(refusal)
        : await pushMember(deps, req, tenant, pushOf(appKey), { groupMsgId })
    }
    // (A zod catchall beside a property of another type is more than TypeScript's index signatures say.)
    return { group_msgid: groupMsgId, ...entries } as z.input<typeof groupAnswer>
  }
}
