import type { EventType } from '../store/events/log.js'
import type { StreamEntry } from '../store/events/stream.js'

/** What one event of the stream says: its type, and its data as the matching inspection item. */
export interface EventFrame {
  seq: number
  type: EventType
  data: unknown
}

/**
 * How the store's entries become what the stream sends: the control plane's items, which the
 * features declare (src/sandbox/event-data.ts), handed in by the route that opens the stream.
 */
export type RenderEntries = (appKey: string, entries: StreamEntry[]) => EventFrame[]

/** One Server-Sent Event (the JSON text of `data` has no raw line breaks: one `data:` line). */
export function sseFrame(f: EventFrame): string {
  return `id: ${f.seq}\nevent: ${f.type}\ndata: ${JSON.stringify(f.data)}\n\n`
}
