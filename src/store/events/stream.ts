import type { ListWindow } from '../engine/lister.js'
import type { Delivery, DeliveryFilter } from '../push/deliveries.js'
import type { Push } from '../push/pushes.js'
import type { ListedMessage, MessageStore } from '../sms/messages.js'
import type { ArrivedReport, ReportFilter } from '../sms/reports.js'
import { type EventLog, type EventType, type LoggedEvent, ROW_EVENT_TYPES, type RowEventType } from './log.js'
import type { JournaledRequest, RequestJournal } from './requests.js'

/** One event of an app's stream, with its item as the store holds it. */
export type StreamEntry =
  | { type: 'sms.sent'; seq: number; at: number; message: ListedMessage }
  | { type: 'sms.report'; seq: number; at: number; report: ArrivedReport }
  | { type: 'push.sent'; seq: number; at: number; push: Push }
  | { type: 'push.delivered'; seq: number; at: number; delivery: Delivery }
  | { type: 'request.completed'; seq: number; at: number; request: JournaledRequest }
  | ({ logged: true } & LoggedEvent)

export type StreamFilter = ListWindow & { kind?: EventType | undefined }

interface Sources {
  messages: Pick<MessageStore, 'list'>
  reports: { list(appKey: string, f: ReportFilter): ArrivedReport[] }
  pushes: { list(appKey: string, f: ListWindow): Push[] }
  pushDeliveries: { list(appKey: string, f: DeliveryFilter): Delivery[] }
  events: Pick<EventLog, 'list'>
  requests: Pick<RequestJournal, 'list'>
}

/** The types read from rows of their own, not from the event log. */
const ROW_TYPES: ReadonlySet<EventType> = new Set<RowEventType>(ROW_EVENT_TYPES)

/**
 * An app's events: the rows that carry their own seq (messages, reports, pushes, deliveries) and the event
 * log, merged, and answered as every list is (lister.ts): newest first; with `after`, the `limit`
 * right after it. Each source is read through its (app_key, seq) index, `limit` at most, so the
 * first `limit` of the merge are right. `kind` reads only the source of that type.
 */
export function createStream(s: Sources) {
  return {
    list(appKey: string, filter: StreamFilter): StreamEntry[] {
      const { kind, ...window } = filter
      const wants = (type: EventType) => kind === undefined || kind === type
      const entries: StreamEntry[] = []
      if (wants('sms.sent'))
        for (const m of s.messages.list(appKey, window))
          entries.push({ type: 'sms.sent', seq: m.seq, at: m.createdAt, message: m })
      if (wants('sms.report'))
        for (const r of s.reports.list(appKey, window))
          entries.push({ type: 'sms.report', seq: r.seq, at: r.reportAt, report: r })
      if (wants('push.sent'))
        for (const p of s.pushes.list(appKey, window))
          entries.push({ type: 'push.sent', seq: p.seq ?? 0, at: p.createdAt, push: p })
      if (wants('push.delivered'))
        for (const d of s.pushDeliveries.list(appKey, window))
          entries.push({ type: 'push.delivered', seq: d.seq ?? 0, at: d.deliveredAt ?? 0, delivery: d })
      if (wants('request.completed'))
        for (const r of s.requests.list(appKey, window))
          entries.push({ type: 'request.completed', seq: r.seq, at: r.at, request: r })
      if (kind === undefined || !ROW_TYPES.has(kind))
        for (const e of s.events.list(appKey, { ...window, kind })) entries.push({ logged: true, ...e })
      // With `after`: the `limit` lowest past it; else the `limit` highest. Newest first either way.
      if (filter.after === undefined) return entries.sort((a, b) => b.seq - a.seq).slice(0, filter.limit)
      return entries
        .sort((a, b) => a.seq - b.seq)
        .slice(0, filter.limit)
        .reverse()
    },
  }
}

export type Stream = ReturnType<typeof createStream>
