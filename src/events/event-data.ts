import type { EventType } from '../store/events/log.js'

/** What one event of the stream says: its type, and its data as the matching inspection item. */
export interface EventFrame {
  seq: number
  type: EventType
  data: unknown
}

/** One Server-Sent Event (the JSON text of `data` has no raw line breaks: one `data:` line). */
export function sseFrame(f: EventFrame): string {
  return `id: ${f.seq}\nevent: ${f.type}\ndata: ${JSON.stringify(f.data)}\n\n`
}
