import { z } from 'zod'
import { warnedCallsItem } from '../../control/warned.js'
import type { StreamSource } from '../../events/stream.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import type { ListedCode } from './codes-table.js'
import type { ListedMessage } from './messages-table.js'

// What was sent, as the control plane's lists show it (GET /_sandbox/sms/messages, /codes/latest)
// and the event stream carries it (`sms.sent`): each item's schema (the answers' allow-list, the
// OpenAPI document's) and how it is made from the store's rows.

export const sendingItems = {
  message: z.object({
    seq: z.number(),
    msg_id: z.string(),
    mobile: z.string(),
    kind: z.string(),
    temp_id: z.number().nullable(),
    sign_id: z.number().nullable(),
    temp_para: z.record(z.string(), z.string()).nullable(),
    content: z.string(),
    units: z.number(),
    tag: z.string().nullable(),
    schedule_id: z.string().nullable(),
    /** The code it carried (codes and voice codes), else null. */
    code: z.string().nullable(),
    created_at: z.string(),
    /** Warnings of the call that sent it, or of the SMS schedule it was sent for (its schedule_id). */
    warnings: warnedCallsItem,
  }),
  code: z.object({
    seq: z.number(),
    msg_id: z.string(),
    mobile: z.string(),
    kind: z.string(),
    code: z.string(),
    expires_at: z.string(),
    verified: z.boolean(),
    created_at: z.string(),
  }),
}

type Item<K extends keyof typeof sendingItems> = z.input<(typeof sendingItems)[K]>

export const messageItem = (m: ListedMessage): Item<'message'> => ({
  seq: m.seq,
  msg_id: m.msgId,
  mobile: m.mobile,
  kind: m.kind,
  temp_id: m.tempId,
  sign_id: m.signId,
  temp_para: m.tempPara,
  content: m.content,
  units: m.units,
  tag: m.tag,
  schedule_id: m.scheduleId,
  code: m.code,
  created_at: iso(m.createdAt),
})

export const codeItem = (c: ListedCode): Item<'code'> => ({
  seq: c.seq,
  msg_id: c.msgId,
  mobile: c.mobile,
  kind: c.kind,
  code: c.code,
  expires_at: iso(c.expiresAt),
  verified: c.verifiedAt !== null,
  created_at: iso(c.createdAt),
})

/** `sms.sent` in the event stream: the app's messages, each as GET /_sandbox/sms/messages shows it. */
export const messageSource = (store: Pick<Store, 'messages'>): StreamSource => ({
  type: 'sms.sent',
  list: (appKey, window) =>
    store.messages.list(appKey, window).map(m => ({ seq: m.seq, data: () => messageItem(m) })),
})
