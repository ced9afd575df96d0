import type { AudienceSubject } from '../../../advisor/audience.js'
import type { PipelineDeps } from '../../../deps.js'
import type { ApiError } from '../../../errors.js'
import type { Store } from '../../../store/index.js'
import type { Tenant } from '../../../tenancy.js'
import { dayKey } from '../../../time.js'
import { pushErrors } from '../../errors.js'
import { checkMedia } from '../../images/index.js'
import { broadcastLimitOf, PUSH_LIMITS } from '../../limits.js'
import type { PushRequest } from '../payload.js'
import { findTargets, quotasOf, routingOfPush, seenOf } from './fan-out.js'
import {
  type FanOutShape,
  isWide,
  startFanOut,
  type WideShape,
  wideShape,
  wideShapeInTurns,
} from './slices.js'

export type PushOutcome = {
  sendno: string
  msgId: string
  /** The push reached nobody: the 1011 to answer (it carries the msg_id). */
  noTarget?: ApiError
  /** Its deliveries are written in slices (slices.ts) by the due-work loop, after the job that accepted it. */
  sliced?: boolean
  /**
   * What the production advisor reads of its devices (advisor/audience.ts): all of them, or for a
   * sliced push a sample of its first targets (`sample` says how many). Absent: a cid's first result.
   */
  seen?: AudienceSubject
}

/** What a push belongs to besides its app: the group push it is one member's part of. */
export interface PushOrigin {
  groupMsgId?: string
}

/** A new 17-digit push msg_id (migration 003); also a group push's group_msgid. */
export function newPushMsgId(store: Store): string {
  return `181${String(store.sequences.next('push_msg_id')).padStart(14, '0')}`
}

/**
 * A push as /v3/push makes it: accepted (or only checked) by dispatchPush in one write job; a push
 * to a large audience (slices.ts) has looked for its first target before, a slice at a time, and
 * is answered once it and its plan are durable: the due-work loop writes its deliveries in slices.
 */
export async function sendPush(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  validateOnly: boolean,
  origin: PushOrigin = {},
): Promise<PushOutcome> {
  const { store } = deps
  const shape: FanOutShape = isWide(store, tenant.app, req)
    ? await wideShapeInTurns(store, tenant.app, req)
    : { wide: false }
  const outcome = await store.write(() => dispatchPush(deps, tenant, req, validateOnly, origin, shape))
  return outcome
}

/**
 * Accepts a push (or only checks it, for /validate) in one write job, so the cid, broadcast and
 * override checks cannot race. A push that reaches nobody still gets its msg_id (1011 carries
 * it), so that outcome is returned, not thrown: a throw would roll the sequence back. `shape`:
 * whether it goes in slices, as sendPush found; without it (a scheduled push's firing), found here.
 */
export function dispatchPush(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  validateOnly: boolean,
  origin: PushOrigin = {},
  shape?: FanOutShape,
): PushOutcome {
  const { store, config } = deps
  const { app } = tenant
  const now = tenant.now()
  if (req.cid && !validateOnly) {
    const first = store.pushes.byCid(app.appKey, req.cid, now - PUSH_LIMITS.cidLifetimeMs)
    if (first) return { sendno: first.sendno, msgId: first.msgId }
  }
  if (req.options.overrideMsgId !== undefined) {
    const prior = store.pushes.get(app.appKey, req.options.overrideMsgId)
    if (!prior || now - prior.createdAt > PUSH_LIMITS.overrideWindowMs) {
      throw pushErrors
        .invalid("'override_msg_id' value is invalid.")
        .because(
          prior
            ? `push ${prior.msgId} is older than a day: it can no longer be overridden`
            : `the app made no push ${req.options.overrideMsgId}`,
        )
    }
  }
  // The images and the plan it names are the app's, as they are now (docs/jpush-wire.md).
  checkMedia(req.body, id => store.pushImages.get(app.appKey, id, now)?.imageType)
  if (req.options.plan !== undefined && !store.pushPlans.exists(app.appKey, req.options.plan))
    throw pushErrors.unknownPlan(req.options.plan)
  // A test-mode push reaches the test devices only: not a broadcast, whatever its audience.
  const broadcast = req.audience === 'all' && !req.options.testModel
  const day = dayKey(now, config.timeZone)
  if (broadcast) {
    const made = store.pushes.broadcastsOn(app.appKey, day)
    const limit = broadcastLimitOf(app)
    if (made >= limit)
      throw pushErrors
        .broadcastLimit()
        .because(`the app made ${made} broadcasts on ${day}: ${limit} a day (settings.broadcasts_per_day)`)
  }
  const slicing: FanOutShape =
    shape ?? (isWide(store, app, req) ? wideShape(store, app, req) : { wide: false })
  // Who it reaches: a wide audience's first target (and the advisor's sample), or a narrow one's devices.
  const targets = slicing.wide ? undefined : findTargets(deps, tenant, req)
  const msgId = newPushMsgId(store)
  const sendno = req.options.sendno
  const reached = slicing.wide ? Number(slicing.found) : targets!.count
  if (reached === 0 && !req.liveActivity)
    return { sendno, msgId, noTarget: pushErrors.noTarget(msgId).because(noTargetReason(req)) }
  const seen = slicing.wide ? sampleSeen(deps, tenant, req, slicing) : targets!.seen
  if (validateOnly) return { sendno, msgId, seen }

  const ttl = req.options.timeToLive
  store.pushes.insert({
    msgId,
    appKey: app.appKey,
    sendno,
    cid: req.cid ?? null,
    payload: req.body,
    broadcast,
    dayKey: day,
    timeToLive: ttl,
    createdAt: now,
    groupMsgId: origin.groupMsgId ?? null,
    plan: req.options.plan ?? null,
  })
  // Its deliveries: one path whatever its size (slices.ts), its first slice in this job when narrow.
  startFanOut(deps, app, { msgId, sendno, createdAt: now }, req, slicing.wide ? slicing : targets!)
  return { sendno, msgId, sliced: slicing.wide, seen }
}

/** Why a push reached nobody: its audience, on its platforms, among the app's devices. */
function noTargetReason(req: PushRequest): string {
  const platforms = req.platforms.join(', ')
  const reached = req.message === undefined ? ` with a notification for ${platforms}` : ` on ${platforms}`
  if (req.audience === 'all') return `the app has no device${reached}`
  const named = Object.entries(req.audience)
    .map(([key, values]) => `${key} ${JSON.stringify(values)}`)
    .join(' and ')
  return `no device of the app matches audience ${named}${reached}`
}

/**
 * What the advisor reads of a sliced push, answered before its slices: its first targets (up to
 * SAMPLE_DEVICES of the registry from the first one, slices.ts), their APNs environments and the
 * vendor quotas they would take (read, not taken). A scheduled push's firing has no sample: no
 * request to warn.
 */
function sampleSeen(deps: PipelineDeps, tenant: Tenant, req: PushRequest, shape: WideShape): AudienceSubject {
  const routing = routingOfPush(req)
  const seen: AudienceSubject = { ...seenOf(routing, shape.sample), sample: shape.sample.length }
  quotasOf(deps, tenant.app, req, shape.sample, tenant.now(), seen)
  return seen
}
