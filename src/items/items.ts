import { z } from 'zod'
import { warnedCallsItem as warnedCalls } from '../control/warned.js'

// The items of the control plane's lists, as their schemas (the answers' allow-list); views.ts
// makes them from the store's rows. An event of the stream carries the same item as its data.
// The SMS features declare their own (sms/sending/items.ts, sms/reports/items.ts).

export const items = {
  push: z.object({
    seq: z.number(),
    msg_id: z.string(),
    registration_id: z.string(),
    platform: z.string(),
    /** The device's alias when the push reached it. */
    alias: z.string().nullable(),
    notification: z.unknown(),
    message: z.unknown(),
    received_at: z.string(),
    sms_msg_id: z.string().nullable(),
    /** DELETE /v3/push/{msg_id} after it arrived: the device had it, the app took it back. */
    withdrawn_at: z.string().nullable(),
    /** An SM2-encrypted push (`X-Encrypt-Type: SM2`): delivered, its content unreadable here (null). */
    encrypted: z.literal('SM2').optional(),
    /**
     * The channel it came by: jpush, a maker's (xiaomi, huawei, honor, oppo, vivo, meizu, fcm, hmos),
     * apns-production or apns-development (docs/push.md "How a push reaches a phone"); null: from
     * before routes were recorded.
     */
    route: z.string().nullable(),
    /** Why it had not arrived at once (it waited): null once arrived. */
    reason: z.string().nullable(),
    /** Warnings of the call that pushed it, whichever device they concern (the UI sorts that out). */
    warnings: warnedCalls,
  }),
  /**
   * One accepted push (`push.sent`), whoever it reached: what it was sent with, as the app sent it.
   * What each device got follows as `push.delivered` (the item above).
   */
  pushSent: z.object({
    seq: z.number(),
    msg_id: z.string(),
    sendno: z.string(),
    cid: z.string().nullable(),
    /** "all" or the platforms, as sent. */
    platform: z.unknown(),
    /** "all" or the audience object, as sent. */
    audience: z.unknown(),
    notification: z.unknown(),
    message: z.unknown(),
    /** To every device of the app (audience "all", not in test mode). */
    broadcast: z.boolean(),
    /** The group push it is one app's part of; null for the app's own. */
    group_msgid: z.string().nullable(),
    /** The push plan it named (options.business_operation_code). */
    plan: z.string().nullable(),
    created_at: z.string(),
    withdrawn_at: z.string().nullable(),
    /** An SM2-encrypted push: only its audience is in clear; platform, notification and message null. */
    encrypted: z.literal('SM2').optional(),
  }),
  callback: z.object({
    seq: z.number(),
    id: z.number(),
    type: z.string(),
    /** The body posted to the app's URL. */
    data: z.record(z.string(), z.unknown()),
    /** Where it goes: a push's callback.url; null: the app's callback_url. */
    url: z.string().nullable(),
    state: z.string(),
    attempts: z.array(
      z.object({
        attempt: z.number(),
        url: z.string(),
        at: z.string(),
        status_code: z.number().nullable(),
        error: z.string().nullable(),
      }),
    ),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
  }),
  /** One journaled request (GET /_sandbox/requests, `request.completed`). */
  request: z.object({
    seq: z.number(),
    /** When it was answered: on the app's clock, and in real time. */
    at: z.string(),
    real_at: z.string(),
    method: z.string(),
    path: z.string(),
    /** After `?`, tokens redacted; null: none. */
    query: z.string().nullable(),
    /** `sms` (/v1), `push` (/v3) or `sandbox` (/_sandbox). */
    surface: z.string(),
    status: z.number(),
    /** The refusal's code and message as answered; null for a 2xx. */
    code: z.number().nullable(),
    message: z.string().nullable(),
    /** Why the sandbox refused, in words: the rule, limit, setting or fault that decided. */
    reason: z.string().nullable(),
    /** Ids the call created (msg_id, schedule_id, temp_id…) or named in its path. */
    ids: z.record(z.string(), z.array(z.string())),
    duration_ms: z.number(),
    client: z.string(),
    user_agent: z.string().nullable(),
    /** The operator's credentials acted for the app (X-Sandbox-App). */
    operator: z.boolean(),
    /** The bodies as text, secrets redacted, each at most 4 KB; null: none. */
    request_body: z.string().nullable(),
    answer_body: z.string().nullable(),
    /**
     * What production would do otherwise with this accepted call (docs/advisor.md): each warning's
     * rule, what it found, and where the rule comes from. Empty: nothing to say.
     */
    warnings: z.array(z.object({ rule: z.string(), message: z.string(), source: z.string() })),
  }),
}
