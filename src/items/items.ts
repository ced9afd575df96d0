import { z } from 'zod'

// The items of the control plane's lists, as their schemas (the answers' allow-list); views.ts
// makes them from the store's rows. An event of the stream carries the same item as its data.
// The features declare their own (push/send/items.ts, sms/sending/items.ts, sms/reports/items.ts).

export const items = {
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
