import type { PipelineDeps } from '../../deps.js'
import type { ApiError } from '../../errors.js'
import type { Store } from '../../store/index.js'
import type { Tenant } from '../../tenancy.js'
import { dayKey } from '../../time.js'
import { pushErrors } from '../errors.js'
import { checkMedia } from '../images/media.js'
import { broadcastLimitOf, PUSH_LIMITS } from '../limits.js'
import type { PushRequest } from '../send/payload.js'
import { pushAccepted } from './callbacks.js'
import { planFanOut } from './fan-out.js'

/** `noTarget`: the push reached nobody, the 1011 to answer (it carries the msg_id). */
export type PushOutcome = { sendno: string; msgId: string; noTarget?: ApiError }

/** What a push belongs to besides its app: the group push it is one member's part of. */
export interface PushOrigin {
  groupMsgId?: string
}

/** A new 17-digit push msg_id (migration 003); also a group push's group_msgid. */
export function newPushMsgId(store: Store): string {
  return `181${String(store.sequences.next('push_msg_id')).padStart(14, '0')}`
}

/**
 * Accepts a push (or only checks it, for /validate) in one write job, so the cid, broadcast and
 * override checks cannot race. A push that reaches nobody still gets its msg_id (1011 carries
 * it), so that outcome is returned, not thrown: a throw would roll the sequence back.
 */
export function dispatchPush(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  validateOnly: boolean,
  origin: PushOrigin = {},
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
  const fanOut = planFanOut(deps, tenant, req)
  const msgId = newPushMsgId(store)
  const sendno = req.options.sendno
  if (fanOut.targets === 0 && !req.liveActivity)
    return { sendno, msgId, noTarget: pushErrors.noTarget(msgId).because(noTargetReason(req)) }
  if (validateOnly) return { sendno, msgId }

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
  const made = fanOut.deliver(msgId, now)
  pushAccepted(deps, app, { msgId, sendno, callback: req.callback }, made, now)
  return { sendno, msgId }
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
