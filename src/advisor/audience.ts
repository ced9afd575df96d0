import type { ApnsEnvironment } from '../device.js'
import type { Store } from '../store/index.js'
import type { Rule } from './advice.js'

// The JPush rules over whom a push reached (push/send/delivery/fan-out.ts counts it while it resolves
// the audience, from what it has already read: no rule here reads the database; a push written in
// slices after its answer is read from a sample of its first targets, slices.ts). Production
// accepts each of these pushes, so each is a warning, never a refusal: they run after the write.

/** How a sampled push's message says what it read. */
const sampled = (s: AudienceSubject) =>
  s.sample === undefined ? '' : ` (of its first ${s.sample} targets: the push is written in slices)`

/** What a push's fan-out saw of its devices, as far as the rules below need it. */
export interface AudienceSubject {
  /** The APNs environment the push's iOS notification goes to (route.ts, routingOf). */
  apnsEnvironment: ApnsEnvironment
  /** Its iOS devices with a notification, and how many of them are builds of the other environment. */
  ios: { targets: number; otherEnvironment: number }
  /** Each vendor quota a delivery of the push took or found used up (only vendors with a total set). */
  quotas: VendorQuotaSeen[]
  /**
   * A push written in slices after its answer (push/send/delivery/slices.ts) is read from a sample: its
   * first `sample` targets in registry order (at most the first 1000 devices of the registry from its
   * first target on). Absent: every target was read.
   */
  sample?: number
}

// A vendor and a kind of quota as the quota's table (push/send/delivery/vendor-quota-table.ts) names
// them, through the store's `Tables`: the advisor stands below the features and imports none.
type QuotaVendor = Parameters<Store['pushVendorQuota']['take']>[2]
type QuotaKind = Parameters<Store['pushVendorQuota']['take']>[3]

export interface VendorQuotaSeen {
  vendor: QuotaVendor
  kind: QuotaKind
  total: number
  /** Left today once this push took its share. */
  left: number
  /** Deliveries that wanted the vendor's channel and went over JPush instead: its quota was used up. */
  exhausted: number
}

/** A quota is low once this share of it or less is left (≥ 90 % used) after the push. */
export const QUOTA_LOW_SHARE = 0.1

const CAV_OPTIONS = 'cavlabs/jiguang-sdk-go api/jpush/push/options/options.go'
const quotaName = (q: VendorQuotaSeen) => `${q.vendor}'s ${q.kind} quota`

/**
 * Whether any rule below can find something: an iOS device of the other APNs environment, or a
 * vendor quota the push took or found used up. Most pushes have neither: the rules are not run.
 */
export const audienceRulesApply = (s: AudienceSubject): boolean =>
  s.ios.otherEnvironment > 0 || s.quotas.length > 0

export const audienceRules: readonly Rule<AudienceSubject>[] = [
  {
    rule: 'apns-environment',
    // The server's default is production (jpush-api.md §5.7; cav options.go:41-47) while the
    // official SDKs send false (development) unless told: jpush/jpush-api-php-client#57,
    // jpush/jpush-api-ruby-client#35, jpush/jpush-api-nodejs-client#21. APNs refuses a token of the
    // other environment; JPush accepts the push.
    source: `${CAV_OPTIONS}:41-47 (apns_production: absent is production); jpush/jpush-api-php-client#57, jpush/jpush-api-ruby-client#35 (the SDKs send false)`,
    check(subject) {
      const { apnsEnvironment, ios } = subject
      if (ios.targets === 0 || ios.otherEnvironment < ios.targets) return undefined
      const other = apnsEnvironment === 'production' ? 'development' : 'production'
      const asked = apnsEnvironment === 'production' ? 'true or absent' : 'false'
      return (
        `options.apns_production is ${asked} (APNs ${apnsEnvironment}) but the push's ${ios.targets} ` +
        `iOS device(s)${sampled(subject)} are ${other} builds: APNs refuses their tokens, none gets the notification`
      )
    },
  },
  {
    rule: 'vendor-quota-exhausted',
    // A vendor's daily quota used up: the maker's channel takes no more today; secondary_push and
    // first_ospush fall back to the JPush connection (an offline phone waits), ospush is refused
    // with 1012 (cav options.go:181-189; GET /v3/push/quota, cav v3_get_quota.go).
    source: `${CAV_OPTIONS}:181-189 (distribution; ospush over quota: 1012); cavlabs/jiguang-sdk-go api/jpush/push/v3_get_quota.go`,
    check(subject) {
      const out = subject.quotas.filter(q => q.exhausted > 0)
      if (out.length === 0) return undefined
      return out
        .map(
          q =>
            `${quotaName(q)} (${q.total} a day) is used up: ${q.exhausted} device(s)${sampled(subject)} went over JPush instead of the maker's channel`,
        )
        .join('; ')
    },
  },
  {
    rule: 'vendor-quota-low',
    source: `cavlabs/jiguang-sdk-go api/jpush/push/v3_get_quota.go (GET /v3/push/quota: total and used per vendor and kind); ${CAV_OPTIONS}:184-186 (ospush over quota: 1012)`,
    check(subject) {
      const low = subject.quotas.filter(q => q.exhausted === 0 && q.left <= q.total * QUOTA_LOW_SHARE)
      if (low.length === 0) return undefined
      return low
        .map(
          q =>
            `${quotaName(q)} has ${q.left} of ${q.total} left today${sampled(subject)} (≥ ${100 - QUOTA_LOW_SHARE * 100}% used): ` +
            'once used up, its devices go over JPush and an ospush push is refused with 1012',
        )
        .join('; ')
    },
  },
]
