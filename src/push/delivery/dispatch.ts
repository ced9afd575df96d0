import type { PipelineDeps } from '../../deps.js'
import type { Store } from '../../store/index.js'
import type { Tenant } from '../../tenancy.js'
import { dayKey } from '../../time.js'
import { pushErrors } from '../errors.js'
import { broadcastLimitOf, PUSH_LIMITS } from '../limits.js'
import type { PushRequest } from '../send/payload.js'
import { pushAccepted } from './callbacks.js'
import { keepDeliveries, planFanOut } from './fan-out.js'
import {
  type FanOutShape,
  isWide,
  planSlices,
  wideShape,
  wideShapeInTurns,
  writeAllSlices,
} from './slices.js'

export type PushOutcome = {
  sendno: string
  msgId: string
  noTarget?: boolean
  /** Its deliveries are to be written in slices (slices.ts), after the job that accepted it. */
  sliced?: boolean
}

/** A new 17-digit push msg_id (migration 003); also a group push's group_msgid. */
export function newPushMsgId(store: Store): string {
  return `181${String(store.sequences.next('push_msg_id')).padStart(14, '0')}`
}

/**
 * A push as /v3/push makes it: accepted (or only checked) by dispatchPush in one write job; a push
 * to a large audience (slices.ts) has looked for its first target before, a slice at a time, and
 * writes its deliveries in slices after: the outcome once every one is durable.
 */
export async function sendPush(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  validateOnly: boolean,
): Promise<PushOutcome> {
  const { store } = deps
  const shape: FanOutShape = isWide(store, tenant.app, req)
    ? await wideShapeInTurns(store, tenant.app, req)
    : { wide: false }
  // dispatchPush refuses (cid, override, broadcast limit) before it writes: no savepoint (writer.ts).
  const outcome = await store.write(() => dispatchPush(deps, tenant, req, validateOnly, shape), {
    checksFirst: true,
  })
  if (outcome.sliced) await writeAllSlices(deps, tenant.app.appKey, outcome.msgId, req)
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
      throw pushErrors.invalid("'override_msg_id' value is invalid.")
    }
  }
  const broadcast = req.audience === 'all'
  const day = dayKey(now, config.timeZone)
  if (broadcast && store.pushes.broadcastsOn(app.appKey, day) >= broadcastLimitOf(app))
    throw pushErrors.broadcastLimit()
  const plan: FanOutShape = shape ?? (isWide(store, app, req) ? wideShape(store, app, req) : { wide: false })
  const fanOut = plan.wide ? undefined : planFanOut(deps, tenant, req)
  const msgId = newPushMsgId(store)
  const sendno = req.options.sendno
  const targets = plan.wide ? Number(plan.found) : (fanOut?.targets ?? 0)
  if (targets === 0 && !req.liveActivity) return { sendno, msgId, noTarget: true }
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
  })
  if (plan.wide || !fanOut) {
    // Its deliveries, and its callbacks, come with its slices (slices.ts).
    if (plan.wide) planSlices(store, { appKey: app.appKey, msgId, createdAt: now }, req, plan)
    return { sendno, msgId, sliced: true }
  }
  const made = fanOut.deliver(msgId, now)
  pushAccepted(deps, app, { msgId, sendno, callback: req.callback }, made, now)
  keepDeliveries(deps, app.appKey, msgId, fanOut.targets)
  return { sendno, msgId }
}
