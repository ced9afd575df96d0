import type { FastifyReply } from 'fastify'
import type { Store } from '../store/index.js'
import { sseFrame } from './event-data.js'
import { type Hub, STREAM_DEFAULTS } from './hub.js'
import type { Stream, StreamFilter } from './stream.js'

/**
 * Streams an app's events on the reply from after `cursor`, as Server-Sent Events. The events are read
 * from SQLite (stream.ts) only as fast as the client takes them: nothing is queued per
 * client beyond what the socket holds (write() says when it is full; 'drain' resumes), so a slow
 * client costs no memory and never holds up the API or other clients. One that stops reading
 * while the app moves more than `maxLag` seqs ahead is dropped, and every stream ends after
 * `maxLifeMs` (see STREAM_DEFAULTS): either way the client resumes with Last-Event-ID.
 */
export function streamEvents(
  deps: { store: Pick<Store, 'seqs' | 'health'>; hub: Hub; stream: Pick<Stream, 'list'> },
  appKey: string,
  reply: FastifyReply,
  cursor: number,
  filter: Omit<StreamFilter, 'after' | 'limit'> = {},
): void {
  const res = reply.raw
  const { store, hub, stream } = deps
  const { batch, maxLag, dropGraceMs, maxLifeMs } = { ...STREAM_DEFAULTS, ...hub.streamOptions }
  let stalled = false
  let ended = false
  let life: NodeJS.Timeout | undefined

  let unsubscribe = () => {}
  const end = (final?: string) => {
    if (ended) return
    ended = true
    clearTimeout(life)
    unsubscribe()
    if (final !== undefined) res.write(final)
    res.end()
    // A client that reads nothing more never takes the end either: its socket is let go.
    if (!res.writableFinished) setTimeout(() => res.destroy(), dropGraceMs).unref()
  }

  function pump(): void {
    while (!ended) {
      let frames: Array<{ seq: number; text: string }>
      try {
        frames = stream
          .list(appKey, { ...filter, after: cursor, limit: batch })
          .reverse()
          .map(f => ({ seq: f.seq, text: sseFrame(f) }))
      } catch (err) {
        store.health.observe(err) // a damaged page: the store's monitor refuses writes from now on
        end() // the database failed: the client reconnects with Last-Event-ID
        return
      }
      for (const f of frames) {
        cursor = f.seq // written or queued in the socket: either way it goes out
        if (!res.write(f.text)) {
          stalled = true
          res.once('drain', () => {
            stalled = false
            pump()
          })
          return
        }
      }
      if (frames.length < batch) return
    }
  }

  unsubscribe = hub.subscribe(
    { appKey, client: reply.request.ip },
    {
      wake() {
        if (!stalled) {
          pump()
          return
        }
        if (store.seqs.current(appKey) - cursor > maxLag)
          end(
            `event: dropped\ndata: ${JSON.stringify({
              reason: `the client fell more than ${maxLag} events behind; reconnect with Last-Event-ID`,
              last_event_id: cursor,
            })}\n\n`,
          )
      },
      heartbeat() {
        if (!stalled && !ended) res.write(': heartbeat\n\n')
      },
      close: why => end(why === undefined ? undefined : `: ${why}\n\n`),
    },
  )
  // Subscribed (or refused, 429, in the API's envelope) before Fastify lets go of the reply.
  reply.hijack()
  res.once('close', () => {
    ended = true
    clearTimeout(life)
    unsubscribe()
  })
  // Its maximum life: the stream ends, and the client resumes where it was (Last-Event-ID).
  life = setTimeout(
    () =>
      end(
        `: this stream reached its maximum life of ${maxLifeMs} ms (EVENT_STREAM_MAX_LIFE_MS); reconnect with Last-Event-ID\n\n`,
      ),
    maxLifeMs,
  ).unref()
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    // The connection ends with the stream: a dropped client sees the end once it read the rest.
    connection: 'close',
    // nginx and similar proxies: pass each event on at once.
    'x-accel-buffering': 'no',
  })
  // Sent at once, so that the client knows the stream is open before the first event.
  res.write(`: events of app ${appKey} after ${cursor}\nretry: 3000\n\n`)
  pump()
}
