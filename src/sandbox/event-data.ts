import type { EventFrame } from '../events/event-data.js'
import { requestItem } from '../items/views.js'
import { pushItems, pushSentItem } from '../push/send/index.js'
import { reportItem } from '../sms/reports/index.js'
import { messageItem } from '../sms/sending/index.js'
import type { StreamEntry } from '../store/events/stream.js'
import type { Store } from '../store/index.js'

/**
 * Renders the store's entries as the stream sends them: a row that carries its own seq becomes the
 * item its list shows (sms.sent: GET /_sandbox/sms/messages…), a logged event is sent as stored.
 */
export function renderEntries(
  store: Pick<Store, 'pushes'>,
  appKey: string,
  entries: StreamEntry[],
): EventFrame[] {
  const push = pushItems(store, appKey)
  return entries.map(e => {
    if ('logged' in e) return { seq: e.seq, type: e.type, data: e.data }
    if (e.type === 'sms.sent') return { seq: e.seq, type: e.type, data: messageItem(e.message) }
    if (e.type === 'sms.report') return { seq: e.seq, type: e.type, data: reportItem(e.report) }
    if (e.type === 'request.completed') return { seq: e.seq, type: e.type, data: requestItem(e.request) }
    if (e.type === 'push.sent') return { seq: e.seq, type: e.type, data: pushSentItem(e.push) }
    return { seq: e.seq, type: e.type, data: push(e.delivery) }
  })
}
