import { ApiError } from '../errors.js'
import type { Rule } from './advice.js'

// The JPush rules over what a push itself says (push/send/push.ts runs them on the body it read):
// its options and, per vendor channel it configures in `options.third_party_channel`, the
// classification that vendor requires. One entry per rule, as data.

/** A push as /v3/push read it: the JSON body, and whether it carries a custom message. */
export interface PushSubject {
  body: Record<string, unknown>
  message: boolean
}

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined
const given = (v: unknown) => v !== undefined && v !== null && v !== ''
const optionsOf = (s: PushSubject) => obj(s.body.options) ?? {}
/** `options.third_party_channel.<vendor>`, when the push configures that vendor's channel. */
const channel = (s: PushSubject, vendor: string) => obj(obj(optionsOf(s).third_party_channel)?.[vendor])
const android = (s: PushSubject) => obj(obj(s.body.notification)?.android)

const CAV_OPTIONS = 'cavlabs/jiguang-sdk-go api/jpush/push/options/options.go'
const JIGUANG_CLASSIFICATION = 'https://docs.jiguang.cn/jpush/client/Android/android_channel_id'

/**
 * Whether any rule below can find something: each reads `options.active_push`,
 * `options.need_backup`, `options.third_party_channel` or `notification.hmos`, and finds nothing
 * when its field is absent. Most pushes name none of them: the rules are not run (≈ 1 µs a push).
 * A rule reading another field must be added here (test/advisor/push-warnings.test.ts checks it).
 */
export function pushRulesApply(body: Record<string, unknown>): boolean {
  const o = obj(body.options)
  if (
    o &&
    (o.active_push !== undefined || o.need_backup !== undefined || o.third_party_channel !== undefined)
  )
    return true
  return obj(obj(body.notification)?.hmos) !== undefined
}

export const pushRules: readonly Rule<PushSubject>[] = [
  {
    rule: 'active-push-custom-message',
    source: `${CAV_OPTIONS}:105-106 (active_push with a custom message or big_push_duration: code 1035)`,
    refusal: () =>
      new ApiError(400, 1035, 'active_push does not support custom message or big_push_duration'),
    check(s) {
      const o = optionsOf(s)
      if (o.active_push !== true) return undefined
      if (s.message)
        return 'options.active_push (screen-on push) takes a notification only, not a custom message'
      if (typeof o.big_push_duration === 'number' && o.big_push_duration > 0)
        return 'options.active_push (screen-on push) cannot be paced with big_push_duration'
      return undefined
    },
  },
  {
    rule: 'need-backup-without-active-push',
    source: `${CAV_OPTIONS}:112 (need_backup true requires active_push true)`,
    check: s =>
      optionsOf(s).need_backup === true && optionsOf(s).active_push !== true
        ? 'options.need_backup is true without options.active_push: the backup strategy is for screen-on pushes only'
        : undefined,
  },
  {
    rule: 'xiaomi-channel-id',
    // "小米推送…已经没有默认消息分类…若应用选择不接入私信或公信，则消息推送会失败"
    source: `${JIGUANG_CLASSIFICATION} (Xiaomi: no default classification; a push without a channel fails)`,
    check: s =>
      channel(s, 'xiaomi') && !given(channel(s, 'xiaomi')?.channel_id) && !given(android(s)?.channel_id)
        ? 'third_party_channel.xiaomi has no channel_id (nor notification.android.channel_id): Xiaomi drops it'
        : undefined,
  },
  {
    rule: 'oppo-category',
    source: `${CAV_OPTIONS}:208-213, 276 (OPPO message classification from 2024-11-20: category)`,
    check: s =>
      channel(s, 'oppo') && !given(channel(s, 'oppo')?.category)
        ? 'third_party_channel.oppo has no category: OPPO classifies messages by category since 2024-11-20'
        : undefined,
  },
  {
    rule: 'oppo-notify-level-category',
    source: `${CAV_OPTIONS}:280 (notify_level requires category)`,
    check: s =>
      given(channel(s, 'oppo')?.notify_level) && !given(channel(s, 'oppo')?.category)
        ? 'third_party_channel.oppo.notify_level is given without category, which it requires'
        : undefined,
  },
  {
    rule: 'vivo-classification',
    source: `${CAV_OPTIONS}:70, 220 (vivo classification: absent is 0, an operation message)`,
    check: s =>
      channel(s, 'vivo') && !given(optionsOf(s).classification) && !given(channel(s, 'vivo')?.classification)
        ? 'neither options.classification nor third_party_channel.vivo.classification: vivo takes it as an operation message (0), counted against its quota'
        : undefined,
  },
  {
    rule: 'honor-importance-high',
    // "HIGH：非常重要消息（仅华为支持）": Honor's cloud notifications take LOW and NORMAL only.
    source: `${CAV_OPTIONS}:243-246 (importance HIGH: Huawei only; Honor takes LOW, NORMAL)`,
    check: s =>
      String(channel(s, 'honor')?.importance ?? '').toUpperCase() === 'HIGH'
        ? 'third_party_channel.honor.importance is HIGH, which only Huawei supports: Honor takes LOW or NORMAL'
        : undefined,
  },
  {
    rule: 'hmos-category',
    source:
      'cavlabs/jiguang-sdk-go api/jpush/push/notification/hmos.go:32 (category required by the vendor, not checked by JPush)',
    check: s => {
      const hmos = obj(obj(s.body.notification)?.hmos)
      return hmos && !given(hmos.category)
        ? 'notification.hmos has no category: HarmonyOS requires it; JPush passes it unchecked'
        : undefined
    },
  },
]
