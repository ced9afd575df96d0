import { z } from 'zod'
import { warnedCallsItem as warnedCalls } from '../../control/warned.js'
import type { StreamSource } from '../../events/stream.js'
import type { Store } from '../../store/index.js'
import { iso, isoOrNull } from '../../time.js'
import { isObject } from '../values.js'
import type { Delivery } from './delivery/deliveries-table.js'
import { parseNotification } from './notification.js'
import type { Push } from './pushes-table.js'

// What was pushed, as the control plane's lists show it (GET /_sandbox/push/messages) and the
// event stream carries it (`push.delivered`, `push.sent`): each item's schema (the answers'
// allow-list, the OpenAPI document's) and how it is made from the store's rows.

export const pushSendItems = {
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
}

type Item<K extends keyof typeof pushSendItems> = z.input<(typeof pushSendItems)[K]>

/**
 * Deliveries as the device got them: its platform's notification and the message. `pushes` reads
 * each push once, however many deliveries of it are shown (a broadcast's are all the same push).
 */
export function pushItems(store: Pick<Store, 'pushes'>, appKey: string) {
  const pushes = new Map<string, Push | undefined>()
  return (d: Delivery): Item<'push'> => {
    if (!pushes.has(d.msgId)) pushes.set(d.msgId, store.pushes.get(appKey, d.msgId))
    const push = pushes.get(d.msgId)
    const payload = push?.payload ?? {}
    const notification = isObject(payload.notification) ? parseNotification(payload.notification) : {}
    return {
      seq: d.seq ?? 0,
      msg_id: d.msgId,
      registration_id: d.registrationId,
      platform: d.platform,
      alias: d.alias,
      notification: notification[d.platform] ?? null,
      message: payload.message ?? null,
      received_at: iso(d.deliveredAt ?? 0),
      sms_msg_id: d.smsMsgId,
      withdrawn_at: isoOrNull(push?.withdrawnAt ?? null),
      ...(payload.encrypted === 'SM2' ? { encrypted: 'SM2' as const } : {}),
      route: d.route,
      reason: d.reason,
    }
  }
}

/** An accepted push as the app sent it (`push.sent`). */
export const pushSentItem = (p: Push): Item<'pushSent'> => ({
  seq: p.seq ?? 0,
  msg_id: p.msgId,
  sendno: p.sendno,
  cid: p.cid,
  platform: p.payload.platform ?? null,
  audience: p.payload.audience ?? null,
  notification: p.payload.notification ?? null,
  message: p.payload.message ?? null,
  broadcast: p.broadcast,
  group_msgid: p.groupMsgId ?? null,
  plan: p.plan ?? null,
  created_at: iso(p.createdAt),
  withdrawn_at: isoOrNull(p.withdrawnAt ?? null),
  ...(p.payload.encrypted === 'SM2' ? { encrypted: 'SM2' as const } : {}),
})

/**
 * `push.sent` and `push.delivered` in the event stream: the app's pushes and each device's
 * delivery, as GET /_sandbox/push/… show them.
 */
export const pushSources = (store: Pick<Store, 'pushes' | 'pushDeliveries'>): StreamSource[] => [
  {
    type: 'push.sent',
    list: (appKey, window) =>
      store.pushes.list(appKey, window).map(p => ({ seq: p.seq ?? 0, data: () => pushSentItem(p) })),
  },
  {
    type: 'push.delivered',
    list: (appKey, window) => {
      const item = pushItems(store, appKey)
      return store.pushDeliveries.list(appKey, window).map(d => ({ seq: d.seq ?? 0, data: () => item(d) }))
    },
  },
]
