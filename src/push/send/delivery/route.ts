import type { ApnsEnvironment, Device, PushPlatform, VendorChannel } from '../../../device.js'
import { VENDOR_CHANNELS } from '../../../device.js'
import type { App } from '../../../store/apps/apps.js'
import { pushErrors } from '../../errors.js'
import { isObject } from '../../values.js'
import {
  QUOTA_VENDORS,
  type QuotaKind,
  type QuotaVendor,
  type VendorQuotaStore,
} from './vendor-quota-table.js'

// How one push reaches one phone (docs/push.md "How a push reaches a phone"): the device is a twin
// of a phone (its platform, the maker's channel it registered with, the APNs environment of its
// build), and each delivery records the route it took or why it did not arrive. The rules, and
// where each comes from (cav = cavlabs/jiguang-sdk-go, api/jpush/push/options/options.go):
// - iOS notifications go through APNs, to the environment `options.apns_production` names; the
//   server's default is production (jpush-api.md §5.7; cav options.go:41-47). A device of the other
//   environment gets nothing: APNs refuses its token (wrong-apns-environment).
// - Android and HarmonyOS notifications take the maker's channel per
//   `options.third_party_channel.<vendor>.distribution` (cav options.go:181-189):
//   `jpush` never; `ospush` always, and a push naming it for a vendor whose quota is too small is
//   refused with 1012; `first_ospush` whenever the device has a maker's channel; `secondary_push`
//   (the default of non-VIP apps, cav options.go:59-63) only while the app is offline.
//   Otherwise the JPush connection: at once when online, else when the device comes back within
//   time_to_live. Custom messages (`message`) always go over JPush.
// - Xiaomi, OPPO and vivo count daily quotas (GET /v3/push/quota, cav v3_get_quota.go), one for
//   system and one for operation messages, by `options.classification` (0, the default:
//   operation; 1: system), else the vendor's own `classification`; `skip_quota` (Xiaomi, OPPO) skips
//   the count when `options.classification` is absent (cav options.go:210-222). A quota used up
//   sends the push over JPush (vendor-quota-exhausted while it waits). The sandbox's choice: a
//   quota counts only where the app set a total (settings.quota), per day of the app's clock.
// A rule engine (warnings) reads a delivery's outcome here: `Outcome` per device, `Routing` per push.

/** The channel a delivery took, or will take once its device is back. */
export type Route = 'jpush' | VendorChannel | 'apns-production' | 'apns-development'

/** Why a delivery did not arrive at once, or at all. */
export type NotArrived =
  | 'wrong-apns-environment'
  | 'vendor-quota-exhausted'
  | 'offline-no-vendor-route'
  | 'device-offline'
  | 'dropped-classification'

export type Distribution = 'jpush' | 'ospush' | 'first_ospush' | 'secondary_push'
const DISTRIBUTIONS: readonly string[] = ['jpush', 'ospush', 'first_ospush', 'secondary_push']
/** What a vendor the push does not name gets: a free app's default (cav options.go:59-63). */
export const DEFAULT_DISTRIBUTION: Distribution = 'secondary_push'

/** What one device gets of one push. */
export interface Outcome {
  /** Delivered at once. */
  now: boolean
  route: Route | null
  reason: NotArrived | null
}

/** What a push says about its routes, read once per push. */
export interface Routing {
  /** The APNs environment its iOS notification goes to. */
  apnsEnvironment: ApnsEnvironment
  /** Each channel's distribution (the push's, else the default). */
  distributions: Record<VendorChannel, Distribution>
  /** The vendors the push names with `ospush`: their quota must cover it (1012). */
  ospush: VendorChannel[]
  /** The platforms it carries a notification for (vendor channels and APNs carry notifications). */
  notified: ReadonlySet<PushPlatform>
  /** Which quota each quota vendor's delivery takes; undefined: none (skip_quota). */
  quotaKinds: Partial<Record<QuotaVendor, QuotaKind>>
}

export function routingOf(body: unknown, notified: readonly PushPlatform[]): Routing {
  const options = isObject(body) && isObject(body.options) ? body.options : {}
  const channels = isObject(options.third_party_channel) ? options.third_party_channel : undefined
  const production = options.apns_production
  // Most pushes name no vendor and no classification: the parts every such push shares, made once
  // (read only, never written: route.ts and fan-out.ts read them).
  const classification = options.classification
  const plain = channels === undefined && (classification === undefined || classification === null)
  // Absent: production (the server's default); the official SDKs send false unless told.
  const apnsEnvironment: ApnsEnvironment =
    production === false || production === 0 ? 'development' : 'production'
  if (plain) return plainRouting(apnsEnvironment, notified)
  return { apnsEnvironment, ...routingParts(channels ?? {}, classification), notified: new Set(notified) }
}

// A plain push's routing depends on its APNs environment and notified platforms only: one frozen
// Routing per combination (2 × 32), made when first asked, shared by every such push.
const PLATFORM_BIT: Record<PushPlatform, number> = { android: 1, ios: 2, hmos: 4, quickapp: 8, winphone: 16 }
const plainRoutings: Routing[] = []

function plainRouting(apnsEnvironment: ApnsEnvironment, notified: readonly PushPlatform[]): Routing {
  let bits = apnsEnvironment === 'development' ? 32 : 0
  for (const p of notified) bits |= PLATFORM_BIT[p]
  plainRoutings[bits] ??= Object.freeze({ apnsEnvironment, ...PLAIN_PARTS, notified: new Set(notified) })
  return plainRoutings[bits]!
}

type RoutingParts = Pick<Routing, 'distributions' | 'ospush' | 'quotaKinds'>

function routingParts(channels: Record<string, unknown>, classification: unknown): RoutingParts {
  const distributions = {} as Record<VendorChannel, Distribution>
  const ospush: VendorChannel[] = []
  for (const c of VENDOR_CHANNELS) {
    const own = isObject(channels[c]) ? channels[c].distribution : undefined
    const d =
      typeof own === 'string' && DISTRIBUTIONS.includes(own) ? (own as Distribution) : DEFAULT_DISTRIBUTION
    distributions[c] = d
    if (d === 'ospush') ospush.push(c)
  }
  const quotaKinds: Routing['quotaKinds'] = {}
  for (const v of QUOTA_VENDORS) {
    const own = isObject(channels[v]) ? channels[v] : {}
    if (classification === undefined || classification === null) {
      if (own.skip_quota === true && v !== 'vivo') continue
      quotaKinds[v] = own.classification === 1 ? 'system' : 'operation'
    } else quotaKinds[v] = classification === 1 ? 'system' : 'operation'
  }
  return { distributions, ospush, quotaKinds }
}

const frozen = (p: RoutingParts): RoutingParts => {
  Object.freeze(p.distributions)
  Object.freeze(p.ospush)
  Object.freeze(p.quotaKinds)
  return p
}
const PLAIN_PARTS = frozen(routingParts({}, undefined))

/** Whether a notification to `device` goes through its maker's channel, quota permitting. */
function wantsVendor(routing: Routing, channel: VendorChannel, online: boolean): boolean {
  const d = routing.distributions[channel]
  return d === 'ospush' || d === 'first_ospush' || (d === 'secondary_push' && !online)
}

/** The route of one push to one device; `quota` takes a vendor's quota, false when used up. */
export function routeOf(device: Device, routing: Routing, quota: QuotaLedger): Outcome {
  const notified = routing.notified.has(device.platform)
  if (device.platform === 'ios' && notified) {
    const env = routing.apnsEnvironment
    if (device.apnsEnvironment !== null && device.apnsEnvironment !== env)
      return { now: false, route: null, reason: 'wrong-apns-environment' }
    const route: Route = `apns-${env}`
    return device.online
      ? { now: true, route, reason: null }
      : { now: false, route, reason: 'device-offline' }
  }
  let exhausted = false
  const channel = notified ? device.channel : null
  if (channel && wantsVendor(routing, channel, device.online)) {
    if (quota.take(channel)) return { now: true, route: channel, reason: null }
    exhausted = true
  }
  if (device.online) return { now: true, route: 'jpush', reason: null }
  return {
    now: false,
    route: 'jpush',
    reason: exhausted ? 'vendor-quota-exhausted' : 'offline-no-vendor-route',
  }
}

const isQuotaVendor = (c: string): c is QuotaVendor => (QUOTA_VENDORS as readonly string[]).includes(c)

/** A quota's total and the used count the app's settings start it at (-1: unlimited). */
function limitOf(settings: Record<string, unknown>, vendor: QuotaVendor, kind: QuotaKind) {
  const own = isObject(settings.quota) ? settings.quota[`${vendor}_quota`] : undefined
  const k = isObject(own) ? own[kind] : undefined
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= -1 ? v : -1)
  return isObject(k) ? { total: n(k.total), used: Math.max(0, n(k.used)) } : { total: -1, used: 0 }
}

/** Whether the app set any finite vendor quota (only then are deliveries counted against one). */
export function hasFiniteQuota(app: App): boolean {
  return QUOTA_VENDORS.some(v =>
    (['system', 'operation'] as const).some(k => limitOf(app.settings, v, k).total !== -1),
  )
}

/** What GET /v3/push/quota answers for one vendor's kind of message today. */
export function quotaToday(
  store: { pushVendorQuota: VendorQuotaStore },
  app: App,
  day: string,
  vendor: QuotaVendor,
  kind: QuotaKind,
  used = store.pushVendorQuota.usedOn(app.appKey, day),
): { total: number; used: number } {
  const limit = limitOf(app.settings, vendor, kind)
  if (limit.total === -1) return { total: -1, used: -1 }
  return { total: limit.total, used: limit.used + (used.get(`${vendor}.${kind}`) ?? 0) }
}

/** The vendors' quotas as one push takes them: read once, when first needed; written once, by `flush`. */
export interface QuotaLedger {
  take(channel: VendorChannel): boolean
  /** How many the vendor can still take (Infinity: unlimited, or not counted for this push). */
  left(channel: VendorChannel): number
  /** The vendor's quota for this push's kind of message today (Infinity: unlimited, or not counted). */
  total(channel: VendorChannel): number
  flush(): void
}

export function quotaLedger(
  store: { pushVendorQuota: VendorQuotaStore },
  app: App,
  routing: Routing,
  day: string,
): QuotaLedger {
  let used: Map<string, number> | undefined
  // Made when a delivery first takes a quota: most pushes take none.
  let taken: Map<QuotaVendor, number> | undefined
  const left = (channel: VendorChannel): number => {
    if (!isQuotaVendor(channel)) return Number.POSITIVE_INFINITY
    const kind = routing.quotaKinds[channel]
    if (!kind) return Number.POSITIVE_INFINITY
    const limit = limitOf(app.settings, channel, kind)
    if (limit.total === -1) return Number.POSITIVE_INFINITY
    used ??= store.pushVendorQuota.usedOn(app.appKey, day)
    return limit.total - limit.used - (used.get(`${channel}.${kind}`) ?? 0) - (taken?.get(channel) ?? 0)
  }
  return {
    left,
    total(channel) {
      const kind = isQuotaVendor(channel) ? routing.quotaKinds[channel] : undefined
      const total = kind ? limitOf(app.settings, channel as QuotaVendor, kind).total : -1
      return total === -1 ? Number.POSITIVE_INFINITY : total
    },
    take(channel) {
      const n = left(channel)
      if (n === Number.POSITIVE_INFINITY) return true
      if (n <= 0) return false
      taken ??= new Map()
      taken.set(channel as QuotaVendor, (taken.get(channel as QuotaVendor) ?? 0) + 1)
      return true
    },
    flush() {
      for (const [vendor, n] of taken ?? [])
        store.pushVendorQuota.take(app.appKey, day, vendor, routing.quotaKinds[vendor]!, n)
      taken = undefined
      used = undefined
    },
  }
}

/**
 * `ospush` for a vendor whose quota is too small for the push refuses it with 1012, whether or not
 * the push reaches one of its devices (cav options.go:184-186). `needed`: the push's devices on
 * each channel that route would take.
 */
export function checkOspush(
  routing: Routing,
  quota: QuotaLedger,
  needed: ReadonlyMap<VendorChannel, number>,
) {
  for (const vendor of routing.ospush) {
    const left = quota.left(vendor)
    const want = Math.max(1, needed.get(vendor) ?? 0)
    if (left < want)
      throw pushErrors
        .vendorQuota()
        .because(
          `third_party_channel.${vendor}.distribution is ospush and ${vendor}'s quota has ${Math.max(0, left)} left today`,
        )
  }
}
