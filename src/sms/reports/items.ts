import { z } from 'zod'
import type { StreamSource } from '../../events/stream.js'
import type { Store } from '../../store/index.js'
import { iso } from '../../time.js'
import type { Reply } from './replies-table.js'
import type { ArrivedReport } from './reports-table.js'

// What came back from the carrier, as the control plane's lists show it (GET /_sandbox/sms/reports,
// /sms/replies) and the event stream carries it (`sms.report`, `sms.reply`): each item's schema
// and how it is made from the store's rows.

export const reportItems = {
  report: z.object({
    seq: z.number(),
    msg_id: z.string(),
    mobile: z.string(),
    status: z.number(),
    receive_time: z.string(),
  }),
  reply: z.object({ seq: z.number(), mobile: z.string(), content: z.string(), reply_time: z.string() }),
}

type Item<K extends keyof typeof reportItems> = z.input<(typeof reportItems)[K]>

export const reportItem = (r: ArrivedReport): Item<'report'> => ({
  seq: r.seq,
  msg_id: r.msgId,
  mobile: r.mobile,
  status: r.status,
  receive_time: iso(r.reportAt),
})

export const replyItem = (r: Reply): Item<'reply'> => ({
  seq: r.seq,
  mobile: r.mobile,
  content: r.content,
  reply_time: iso(r.replyAt),
})

/** `sms.report` in the event stream: the reports that arrived, each as GET /_sandbox/sms/reports shows it. */
export const reportSource = (store: Pick<Store, 'reports'>): StreamSource => ({
  type: 'sms.report',
  list: (appKey, window) =>
    store.reports.list(appKey, window).map(r => ({ seq: r.seq, data: () => reportItem(r) })),
})
