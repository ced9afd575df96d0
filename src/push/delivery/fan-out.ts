import type { AudienceSubject } from '../../advisor/audience.js'
import type { PipelineDeps } from '../../deps.js'
import type { Delivery, NewDelivery } from '../../store/push/deliveries.js'
import {
  type Device,
  type PushPlatform,
  VENDOR_CHANNELS,
  type VendorChannel,
} from '../../store/push/devices.js'
import type { QuotaVendor } from '../../store/push/vendor-quota.js'
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
  /** What the production advisor reads of its devices (advisor/audience.ts): filled as they are read and written. */
  seen: AudienceSubject
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
  const { targets, online, ios, wrongApns } = store.pushFanOut.count(appKey, platforms, routing)
  return {
    targets,
    seen: {
      apnsEnvironment: routing.apnsEnvironment,
      ios: { targets: ios, otherEnvironment: wrongApns },
      quotas: [],
    },
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
  const seen = seenOf(routing, targets)
  return {
    targets: targets.length,
    seen,
    deliver: (msgId, now) => deliverEach(deps, tenant, req, targets, msgId, now, seen),
  }
}

/** The advisor's view of a push's targets: its iOS devices, by APNs environment (one pass, no read). */
function seenOf(routing: Routing, targets: readonly Device[]): AudienceSubject {
  const ios = { targets: 0, otherEnvironment: 0 }
  if (routing.notified.has('ios'))
    for (const d of targets) {
      if (d.platform !== 'ios') continue
      ios.targets++
      if (d.apnsEnvironment !== null && d.apnsEnvironment !== routing.apnsEnvironment) ios.otherEnvironment++
    }
  return { apnsEnvironment: routing.apnsEnvironment, ios, quotas: [] }
}

/**
 * Writes the push's delivery to each of `targets` (and its SMS fallback); returns them if it has a
 * callback. `seen`: where the vendors' quotas it took or found used up are told to the advisor.
 */
export function deliverEach(
  deps: PipelineDeps,
  tenant: Tenant,
  req: PushRequest,
  targets: Device[],
  msgId: string,
  now: number,
  seen?: AudienceSubject,
): Delivery[] {
  const { store } = deps
  const ttl = req.options.timeToLive
  const made: Delivery[] = []
  const routing = routingOfPush(req)
  // The vendors' quotas: read when a delivery first takes one, written once after the loop.
  const quota = quotaLedger(store, tenant.app, routing, dayKey(now, deps.config.timeZone))
  // The vendor channels a delivery took or found used up (their quota already read): the advisor's.
  let touched: Map<VendorChannel, number> | undefined
  for (const d of targets) {
    const fallback = req.sms && d.mobile ? req.sms : undefined
    const outcome = routeOf(d, routing, quota)
    if (d.channel !== null && (outcome.route === d.channel || outcome.reason === 'vendor-quota-exhausted')) {
      touched ??= new Map()
      const exhausted = outcome.reason === 'vendor-quota-exhausted' ? 1 : 0
      touched.set(d.channel, (touched.get(d.channel) ?? 0) + exhausted)
    }
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
  if (seen && touched)
    for (const c of VENDOR_CHANNELS) {
      const exhausted = touched.get(c)
      const total = quota.total(c)
      if (exhausted === undefined || total === Number.POSITIVE_INFINITY) continue
      const kind = routing.quotaKinds[c as QuotaVendor]!
      seen.quotas.push({ vendor: c as QuotaVendor, kind, total, left: Math.max(0, quota.left(c)), exhausted })
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
