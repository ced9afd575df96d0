import type { ListWindow } from '../store/engine/lister.js'
import { type EventLog, type EventType, ROW_EVENT_TYPES, type RowEventType } from '../store/events/log.js'
import type { EventFrame } from './event-data.js'

/**
 * One row of a source: its seq, and the item its list shows, made only if the row is among the
 * `limit` the merge keeps.
 */
export interface StreamRow {
  seq: number
  data: () => unknown
}

/**
 * The rows of one event type that carry their own seq (sms.sent: the messages…), brought by the
 * feature that owns them (http/feature.ts: `stream`): the kernel merges them and never names them.
 */
export interface StreamSource {
  type: RowEventType
  /** The app's rows in the window, through their (app_key, seq) index, `limit` at most. */
  list(appKey: string, window: ListWindow): readonly StreamRow[]
}

export type StreamFilter = ListWindow & { kind?: EventType | undefined }

/**
 * An app's events: the rows that carry their own seq, one source per row type, and the event log,
 * merged, and answered as every list is (lister.ts): newest first; with `after`, the `limit` right
 * after it. Each source reads `limit` at most, so the first `limit` of the merge are right, and
 * only those are rendered. `kind` reads only the source of that type. Every row type has exactly
 * one source, checked here at start.
 */
export function createStream(events: Pick<EventLog, 'list'>, sources: readonly StreamSource[]) {
  const byType = new Map<EventType, StreamSource>()
  for (const s of sources) {
    if (byType.has(s.type)) throw new Error(`two sources of ${s.type} in the event stream`)
    byType.set(s.type, s)
  }
  const missing = ROW_EVENT_TYPES.filter(t => !byType.has(t))
  if (missing.length > 0) throw new Error(`no source of ${missing.join(', ')} in the event stream`)

  type Entry = { seq: number; type: EventType; data: () => unknown }
  return {
    list(appKey: string, filter: StreamFilter): EventFrame[] {
      const { kind, ...window } = filter
      const entries: Entry[] = []
      for (const s of sources) {
        if (kind !== undefined && kind !== s.type) continue
        for (const r of s.list(appKey, window)) entries.push({ seq: r.seq, type: s.type, data: r.data })
      }
      if (kind === undefined || !byType.has(kind))
        for (const e of events.list(appKey, { ...window, kind }))
          entries.push({ seq: e.seq, type: e.type, data: () => e.data })
      // With `after`: the `limit` lowest past it; else the `limit` highest. Newest first either way.
      const kept =
        filter.after === undefined
          ? entries.sort((a, b) => b.seq - a.seq).slice(0, filter.limit)
          : entries
              .sort((a, b) => a.seq - b.seq)
              .slice(0, filter.limit)
              .reverse()
      return kept.map(e => ({ seq: e.seq, type: e.type, data: e.data() }))
    },
  }
}

export type Stream = ReturnType<typeof createStream>
