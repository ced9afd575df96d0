import type { Transport } from './http.js'
import type { EventData } from './wire.js'

// GET /_sandbox/events as Server-Sent Events, read through fetch (an EventSource cannot send Basic
// credentials), as an async iterator. Each event's `id` is its seq.

/** Every event the stream carries (the server's src/store/events/log.ts). */
export const EVENT_TYPES = [
  'sms.sent',
  'sms.report',
  'sms.reply',
  'push.delivered',
  'push.clicked',
  'callback.attempt',
  'review.decided',
  'schedule.fired',
  'clock.moved',
  'app.reset',
  'app.changed',
  'request.completed',
  'push.sent',
  'code.verified',
  'template.changed',
  'sign.changed',
  'schedule.changed',
  'device.changed',
  'fault.changed',
] as const
export type EventType = (typeof EVENT_TYPES)[number]

interface Typed<T extends EventType> {
  /** The event's seq: the same numbers as the lists' `seq` and `after`. */
  id: number
  type: T
  /** Shaped like the matching list's item (or endpoint's answer): the document says which. */
  data: EventData<T>
}

/** A template or signature approved (1) or rejected (2), by the clock or the reviewer. */
export type ReviewDecision = EventData<'review.decided'>

/** An app event's app: the app as GET /_sandbox/app shows it, without its secret (issue 33). */
export type AppEvent = EventData<'app.changed'>

/** An event, its data shaped like the matching list's item (or endpoint's answer). */
export type SandboxEvent = { [T in EventType]: Typed<T> }[EventType]

export interface EventOptions {
  /** Only events of this type. */
  kind?: EventType
  /** Start after this seq (what happened since is sent first); by default, from now. */
  after?: number
}

/** The open stream: `for await` over it; `close()` (or leaving the loop) ends it. */
export interface EventStream extends AsyncIterableIterator<SandboxEvent> {
  close(): Promise<void>
}

interface Frame {
  id: string | undefined
  event: string
  data: string
}

/**
 * Opens the stream (resolves once the sandbox has answered, so nothing that happens after is
 * missed). A client that fell too far behind is sent `dropped` and closed by the sandbox: the
 * stream then reconnects with Last-Event-ID by itself; when the sandbox ends it, iteration ends.
 */
export async function openEvents(transport: Transport, options: EventOptions = {}): Promise<EventStream> {
  const abort = new AbortController()
  const connect = (lastId: number | undefined) =>
    transport.open('GET', '/_sandbox/events', {
      query: { kind: options.kind, after: lastId === undefined ? options.after : undefined },
      headers: {
        accept: 'text/event-stream',
        ...(lastId === undefined ? {} : { 'last-event-id': String(lastId) }),
      },
      signal: abort.signal,
    })
  let res = await connect(undefined)

  async function* events(): AsyncGenerator<SandboxEvent> {
    let lastId: number | undefined
    try {
      for (;;) {
        let dropped = false
        for await (const frame of frames(res)) {
          if (frame.event === 'dropped') {
            // It says where it stopped: the seq to resume after.
            dropped = true
            lastId = JSON.parse(frame.data).last_event_id ?? lastId
          } else if (frame.id !== undefined) {
            lastId = Number(frame.id)
            yield { id: lastId, type: frame.event, data: JSON.parse(frame.data) } as SandboxEvent
          }
        }
        if (!dropped) return
        res = await connect(lastId ?? options.after)
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err
    } finally {
      abort.abort()
    }
  }
  const stream = events()
  return Object.assign(stream, {
    async close() {
      abort.abort()
      await stream.return(undefined)
    },
  })
}

/** The events of one answer, by the Server-Sent Events rules (comments and `retry` are skipped). */
async function* frames(res: Response): AsyncGenerator<Frame> {
  if (!res.body) return
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  let frame: Frame = { id: undefined, event: 'message', data: '' }
  let data: string[] = []
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += value
      let end = buffer.indexOf('\n')
      while (end >= 0) {
        const line = buffer.slice(0, end).replace(/\r$/, '')
        buffer = buffer.slice(end + 1)
        end = buffer.indexOf('\n')
        if (line === '') {
          if (data.length > 0) yield { ...frame, data: data.join('\n') }
          frame = { id: frame.id, event: 'message', data: '' }
          data = []
          continue
        }
        const colon = line.indexOf(':')
        if (colon === 0) continue
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'data') data.push(value)
        else if (field === 'event') frame.event = value
        else if (field === 'id') frame.id = value
      }
    }
  } finally {
    await reader.cancel().catch(() => {})
  }
}
