import type { PipelineDeps } from '../../deps.js'
import type { Delivery, NewDelivery } from '../../store/push/deliveries.js'
import type { Device, PushPlatform, VendorChannel } from '../../store/push/devices.js'
import type { Tenant } from '../../tenancy.js'
import { dayKey } from '../../time.js'
import { groupsOf, type Registry, resolveAudience } from '../send/audience.js'
import type { PushRequest } from '../send/payload.js'
import { checkOspush, hasFiniteQuota, quotaLedger, type Routing, routeOf, routingOf } from './route.js'
import { sendSmsFallback } from './sms-fallback.js'

// Who a push reaches and the delivery row each device gets (push_deliveries), in two ways with the
// same outcome:
// - set-based (store/push/fan-out.ts), for audience "all" without an SMS fallback: one count and
//   one INSERT … SELECT over the registry, nothing per device in JavaScript. A broadcast is the one
//   audience that is the whole registry, 100 000 devices and more (issue 11: ≤ 1 s).
// - row by row, for every other audience (they name devices through indexes: an alias is a few
//   rows of 100 000), and for a push with `sms_message`: its fallback needs each device's mobile,
//   and with delay_time 0 sends each text at once (sendSmsFallback), which SQL cannot do; and for a
//   test-mode push (options.test_model), whose test devices filter the audience as resolved.

/** The devices a push reaches, known before its msg_id is stored; their deliveries written after. */
export interface FanOut {
  /** How many devices it reaches (none: the 1011 of no target, unless a live activity). */
  targets: number
  /** Writes the deliveries; returns them when the push has a callback (what it reports on), else none. */
  deliver(msgId: string, now: number): Delivery[]
}

/** Call inside the write job that stores the push: the count and the rows must see the same registry. */
export function planFanOut(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  // A vendor quota the app set is counted device by device (route.ts): no set-based path then.
  return req.audience === 'all' &&
    req.sms === undefined &&
    !req.options.testModel &&
    !hasFiniteQuota(tenant.app)
    ? setBased(deps, tenant, req)
    : rowByRow(deps, tenant, req)
}

/** The push's routing (route.ts), read once per push however many slices it is written in. */
export function routingOfPush(req: PushRequest): Routing {
  let known = routings.get(req)
  if (!known) {
    known = routingOf(
      req.body,
      req.platforms.filter(p => req.notification?.[p] !== undefined),
    )
    routings.set(req, known)
  }
  return known
}
const routings = new WeakMap<PushRequest, Routing>()

/** Whether a device gets anything of this push: a notification for its platform, or the message. */
export function reaches(req: PushRequest, platform: PushPlatform): boolean {
  return req.message !== undefined || req.notification?.[platform] !== undefined
}

function setBased(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  const { store } = deps
  const appKey = tenant.app.appKey
  const platforms = req.platforms.filter(p => reaches(req, p))
  const routing = routingOfPush(req)
  const { targets, online } = store.pushFanOut.count(appKey, platforms, routing)
  return {
    targets,
    deliver(msgId, now) {
      store.pushFanOut.insert({ msgId, appKey, now, ttl: req.options.timeToLive, online }, platforms, routing)
      // Read back in the order they were written (rowid: the registry's), as the row-by-row path
      // collects them: only a push with a callback needs them.
      return req.callback ? store.pushDeliveries.ofPush(appKey, msgId) : []
    },
  }
}

function rowByRow(deps: PipelineDeps, tenant: Tenant, req: PushRequest): FanOut {
  const { app } = tenant
  const devices = deps.store.pushDevices
  const registry: Registry = {
    all: withTags => devices.list(app.appKey, withTags),
    get: rid => devices.get(app.appKey, rid),
    byAlias: alias => devices.byAlias(app.appKey, alias),
    byTag: tag => devices.byTag(app.appKey, tag),
  }
  // options.test_model: the audience as resolved, then only the app's test devices (docs/jpush-wire.md).
  const tests = req.options.testModel ? deps.store.pushTestDevices.ids(app.appKey) : undefined
  const targets = resolveAudience(req.audience, req.platforms, registry, groupsOf(app.settings)).filter(
    d => reaches(req, d.platform) && (tests === undefined || tests.has(d.registrationId)),
  )
  // ospush names a vendor whose quota cannot cover its devices: 1012, before anything is written.
  const routing = routingOfPush(req)
  if (routing.ospush.length > 0) {
    const needed = new Map<VendorChannel, number>()
    for (const d of targets)
      if (d.channel && routing.notified.has(d.platform))
        needed.set(d.channel, (needed.get(d.channel) ?? 0) + 1)
    const day = dayKey(tenant.now(), deps.config.timeZone)
    checkOspush(routing, quotaLedger(deps.store, app, routing, day), needed)
  }
  return {
    targets: targets.length,
    deliver: (msgId, now) => deliverEach(deps, tenant, req, targets, msgId, now),
  }
}

/** Writes the push's delivery to each of `targets` (and its SMS fallback); returns them if it has a callback. */
export function deliverEach(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  targets: Device[],
  msgId: string,
  now: number,
): Delivery[] {
  const { store } = deps
  const ttl = req.options.timeToLive
  const made: Delivery[] = []
  const routing = routingOfPush(req)
  // The vendors' quotas: read when a delivery first takes one, written once after the loop.
  const quota = quotaLedger(store, tenant.app, routing, dayKey(now, deps.config.timeZone))
  for (const d of targets) {
    const fallback = req.sms && d.mobile ? req.sms : undefined
    const outcome = routeOf(d, routing, quota)
    const waits = ttl > 0 && outcome.route !== null
    const delivery: NewDelivery = {
      msgId,
      appKey: tenant.app.appKey,
      registrationId: d.registrationId,
      platform: d.platform,
      status: outcome.now ? ('delivered' as const) : waits ? ('pending' as const) : ('expired' as const),
      expiresAt: now + ttl * 1000,
      deliveredAt: outcome.now ? now : null,
      smsDueAt: fallback ? now + fallback.delayTime * 1000 : null,
      smsMsgId: null,
      smsError: null,
      alias: d.alias,
      route: outcome.route,
      reason: outcome.reason,
    }
    const inserted = store.pushDeliveries.insert(delivery)
    if (req.callback) made.push(inserted) // what its callback reports on
    // delay_time 0: the text goes out with the push, whatever happens to the push.
    if (fallback && d.mobile && fallback.delayTime === 0) {
      store.pushDeliveries.setSms(
        msgId,
        d.registrationId,
        sendSmsFallback(deps, tenant, fallback, d.mobile, now),
      )
    }
  }
  quota.flush()
  return made
}

/**
 * An app keeps at most PUSH_DELIVERIES_KEPT_PER_APP deliveries (its share of the disk): a write
 * that adds `added` of them beyond removes as many of the oldest pushes' (and a bounded number
 * more, should the setting have been lowered), never the push `msgId` being written.
 */
export function keepDeliveries(deps: PipelineDeps, appKey: string, msgId: string, added: number): void {
  deps.store.pushDeliveries.trim(appKey, {
    keep: deps.config.pushDeliveriesKept,
    atMost: added + 1_000,
    except: msgId,
  })
}
