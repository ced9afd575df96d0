import type { z } from 'zod'
import { parseNotification } from '../push/send/index.js'
import { isObject } from '../push/values.js'
import type { LoggedCallback } from '../store/callbacks/outbox.js'
import type { JournaledRequest } from '../store/events/requests.js'
import type { Store } from '../store/index.js'
import type { Delivery } from '../store/push/deliveries.js'
import type { Push } from '../store/push/pushes.js'
import { iso, isoOrNull } from '../time.js'
import type { items } from './items.js'

// How each item of the control plane's lists (items.ts) is made from the store's rows. An event
// of the stream carries the same item as its data.

type Item<K extends keyof typeof items> = z.input<(typeof items)[K]>

export const requestItem = (r: JournaledRequest): Item<'request'> => ({
  seq: r.seq,
  at: iso(r.at),
  real_at: iso(r.realAt),
  method: r.method,
  path: r.path,
  query: r.query,
  surface: r.surface,
  status: r.status,
  code: r.code,
  message: r.message,
  reason: r.reason,
  ids: r.ids ?? {},
  duration_ms: r.durationMs,
  client: r.client,
  user_agent: r.userAgent,
  operator: r.operator,
  request_body: r.requestBody,
  answer_body: r.answerBody,
  warnings: r.warnings === null ? [] : [...r.warnings],
})

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

export const callbackItem = (c: LoggedCallback): Item<'callback'> => ({
  seq: c.seq,
  id: c.id,
  type: c.type,
  data: c.data,
  url: c.url,
  state: c.state,
  attempts: c.log.map(a => ({
    attempt: a.attempt,
    url: a.url,
    at: iso(a.at),
    status_code: a.statusCode,
    error: a.error,
  })),
  next_attempt_at: isoOrNull(c.nextAttemptAt),
  created_at: iso(c.createdAt),
})
