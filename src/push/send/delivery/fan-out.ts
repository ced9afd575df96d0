import type { AudienceSubject } from '../../../advisor/audience.js'
import type { PipelineDeps } from '../../../deps.js'
import { type Device, type PushPlatform, VENDOR_CHANNELS, type VendorChannel } from '../../../device.js'
import type { App } from '../../../store/apps/apps.js'
import type { Store } from '../../../store/index.js'
import type { Tenant } from '../../../tenancy.js'
import { dayKey } from '../../../time.js'
import { groupsFor, type Registry, resolveAudience } from '../audience.js'
import type { PushRequest } from '../payload.js'
import type { Delivery, NewDelivery } from './deliveries-table.js'
import {
  checkOspush,
  hasFiniteQuota,
  type QuotaLedger,
  quotaLedger,
  type Routing,
  routeOf,
  routingOf,
} from './route.js'
import { sendSmsFallback } from './sms-fallback.js'
import type { QuotaVendor } from './vendor-quota-table.js'

// Who a push reaches, and the delivery row each device gets (push_deliveries). Every push's
// deliveries are written by one path, slices.ts's writeSlice, a slice at a time; what differs is
// where a slice's devices come from:
// - a narrow audience (an alias, a few registration_ids, a small tag: candidates through indexes,
//   at most SLICED_ABOVE) is resolved here, row by row, in the job that accepts the push: its devices
//   are its one slice, written in that job (a one-device push is one write job, its deliveries,
//   callbacks and events visible once answered). So is a push with `sms_message` (its fallback needs
//   each device's mobile, and with delay_time 0 sends each text at once), a test-mode push (the test
//   devices filter the audience as resolved: never sliced), and "all" of a small registry whose
//   app set a vendor quota or whose push has an SMS fallback;
// - "all" of a small registry otherwise is counted here in one statement (fan-out-table.ts)
//   and written as slices of the registry: one INSERT … SELECT per page, in the accepting job;
// - a wide audience (slices.ts, isWide) is slices of the registry written by the due-work loop.

/** Who a push reaches, found inside the job that accepts it (the count and the rows see one registry). */
export interface Targets {
  /** How many devices it reaches (none: the 1011 of no target, unless a live activity). */
  count: number
  /** A narrow audience's devices, in registry order: its one slice. Absent: the registry's slices. */
  devices?: Device[]
  /** What the production advisor reads of its devices (advisor/audience.ts): filled as they are written. */
  seen: AudienceSubject
}

/**
 * Who a push to a narrow audience reaches (slices.ts, isWide, says which are wide). Call inside the
 * write job that stores the push; refuses an ospush over its vendor's quota (1012) before anything
 * is written.
 */
export function findTargets(deps: PipelineDeps, tenant: Tenant, req: PushRequest): Targets {
  return inRegistrySlices(tenant.app, req) ? countAll(deps, tenant, req) : resolveEach(deps, tenant, req)
}

/**
 * Whether the push's slices are INSERT … SELECTs over the registry (fan-out-table.ts): "all",
 * no SMS fallback, no vendor quota the app set (counted device by device, route.ts), not test mode.
 */
export function inRegistrySlices(app: App, req: PushRequest): boolean {
  return req.audience === 'all' && req.sms === undefined && !req.options.testModel && !hasFiniteQuota(app)
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

function countAll(deps: PipelineDeps, tenant: Tenant, req: PushRequest): Targets {
  const platforms = req.platforms.filter(p => reaches(req, p))
  const routing = routingOfPush(req)
  const { targets, ios, wrongApns } = deps.store.pushFanOut.count(tenant.app.appKey, platforms, routing)
  return {
    count: targets,
    seen: {
      apnsEnvironment: routing.apnsEnvironment,
      ios: { targets: ios, otherEnvironment: wrongApns },
      quotas: [],
    },
  }
}

function resolveEach(deps: PipelineDeps, tenant: Tenant, req: PushRequest): Targets {
  const { app } = tenant
  const registry = new AppRegistry(deps.store.pushDevices, app.appKey)
  // options.test_model: the audience as resolved, then only the app's test devices (docs/jpush-wire.md).
  const tests = req.options.testModel ? deps.store.pushTestDevices.ids(app.appKey) : undefined
  const groups = groupsFor(req.audience, app.settings)
  const targets = resolveAudience(req.audience, req.platforms, registry, groups).filter(
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
  return { count: targets.length, devices: targets, seen: seenOf(routing, targets) }
}

/** The app's devices as an audience looks them up (one object a push, its methods shared). */
class AppRegistry implements Registry {
  constructor(
    private readonly devices: Store['pushDevices'],
    private readonly appKey: string,
  ) {}
  all(withTags: boolean): Device[] {
    return this.devices.list(this.appKey, withTags)
  }
  get(rid: string): Device | undefined {
    return this.devices.get(this.appKey, rid)
  }
  byAlias(alias: string): Device[] {
    return this.devices.byAlias(this.appKey, alias)
  }
  byTag(tag: string): Device[] {
    return this.devices.byTag(this.appKey, tag)
  }
}

/** The advisor's view of a push's targets: its iOS devices, by APNs environment (one pass, no read). */
export function seenOf(routing: Routing, targets: readonly Device[]): AudienceSubject {
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
  targets: readonly Device[],
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
  if (seen && touched) quotasSeen(seen, routing, quota, touched)
  quota.flush()
  return made
}

/**
 * The vendor quotas `targets` would take, as the advisor reads them, without writing anything: a
 * wide push's sample (slices.ts), before its slices are written.
 */
export function quotasOf(
  deps: PipelineDeps,
  app: App,
  req: PushRequest,
  targets: readonly Device[],
  now: number,
  seen: AudienceSubject,
): void {
  const routing = routingOfPush(req)
  if (!hasFiniteQuota(app)) return
  const quota = quotaLedger(deps.store, app, routing, dayKey(now, deps.config.timeZone))
  const touched = new Map<VendorChannel, number>()
  for (const d of targets) {
    const outcome = routeOf(d, routing, quota)
    if (d.channel !== null && (outcome.route === d.channel || outcome.reason === 'vendor-quota-exhausted'))
      touched.set(
        d.channel,
        (touched.get(d.channel) ?? 0) + (outcome.reason === 'vendor-quota-exhausted' ? 1 : 0),
      )
  }
  quotasSeen(seen, routing, quota, touched) // never flushed: the slices take the quota
}

/** The vendor quotas the deliveries took or found used up (`touched`: per channel, how many found it so). */
function quotasSeen(
  seen: AudienceSubject,
  routing: Routing,
  quota: QuotaLedger,
  touched: ReadonlyMap<VendorChannel, number>,
): void {
  for (const c of VENDOR_CHANNELS) {
    const exhausted = touched.get(c)
    const total = quota.total(c)
    if (exhausted === undefined || total === Number.POSITIVE_INFINITY) continue
    const kind = routing.quotaKinds[c as QuotaVendor]!
    const left = Math.max(0, quota.left(c))
    const known = seen.quotas.find(q => q.vendor === c)
    if (known) {
      known.left = left
      known.exhausted += exhausted
    } else seen.quotas.push({ vendor: c as QuotaVendor, kind, total, left, exhausted })
  }
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
