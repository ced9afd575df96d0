import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../../config.js'
import type { Held } from '../../limits/held.js'
import { OverBound } from '../../limits/held.js'

/**
 * Every open connection (plain, and TLS once its handshake is done: tls/listener.ts hands those to
 * the same server) as the sandbox sees it: whose it is, the answers it is owed, the requests
 * waiting their turn. Two jobs are done here, on the same per-connection record:
 *
 * Bounds on connections (limits/held.ts): per client address and in total. A connection over
 * either is still accepted — accept is never starved, and the newcomer deserves to hear why — but
 * its first request is answered with the refusal (429 for the client's share, 503 for the
 * sandbox's, in the envelope of the surface its path names, `Connection: close`), and a refused
 * connection that sends nothing is closed after REFUSED_GRACE_MS. `/_sandbox/health` and
 * `/_sandbox/ready` are answered even then, so that a full sandbox still says how it is.
 *
 * Back-pressure. Node parses every request of a chunk it reads, and answers pipelined requests in
 * order, holding the answers of those behind in memory until the client has read what is ahead:
 * a client that pipelines requests for a large answer and never reads could make the process
 * hold gigabytes (issue 19). So a request runs only while its connection owes fewer than
 * `maxPipelined` answers, its client has less than `maxUnreadBytesPerConnection` unread, and,
 * if it has unread bytes at all, the clients together less than `maxUnreadBytes`. Otherwise the
 * request waits its turn and the connection is no longer read (socket.pause()), until the client
 * reads (the socket drains) or an answer is done. One that leaves its answers unread for
 * `unreadTimeoutMs` without taking a byte is cut off, and whatever was held for it is let go.
 *
 * A pipelined burst past the bound. The pause stops the reads, not the parse of the chunk already
 * read: a client that writes 40 requests at once has them all parsed. Up to `maxPipelined` wait
 * their turn; the next one is refused (429 in its surface's envelope, `Connection: close`) without
 * being processed, and so is everything after it, unanswered: the connection ends after that
 * refusal. Everything before it runs and is answered in order (issue 33: cutting the connection
 * there lost the answers of the writes already stored). What such a connection still holds (the
 * rest of one read, parsed: about 5 MiB of the smallest requests, measured) is a bound of its own, `closing`, per
 * client address and in total; past it, the busiest address's oldest such connection is cut.
 */
export function useConnections(
  app: FastifyInstance,
  held: Pick<Held, 'connections' | 'closing' | 'refusals' | 'measureUnread'>,
  options: ConnectionOptions,
): ConnectionTracker {
  const server = app.server
  const { maxPipelined, maxUnreadBytesPerConnection, maxUnreadBytes, unreadTimeoutMs } = options
  /** Every open connection (the graceful close goes through them: drain.ts). */
  const open = new Set<Socket>()
  /** Connections whose client has answers unread: what the total bound and the timeout look at. */
  const unread = new Set<Connection>()
  let refusedOpen = 0
  let watch: NodeJS.Timeout | undefined
  let refuseEvery: () => Error | undefined = () => undefined
  let answered: ((socket: Socket, owed: number) => void) | undefined

  const totalUnread = (): number => {
    let sum = 0
    for (const c of unread) sum += unreadOf(c)
    return sum
  }
  held.measureUnread(totalUnread)

  server.prependListener('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? 'unknown'
    const c: Connection = {
      socket,
      client,
      requests: 0,
      answers: new Set(),
      waiting: [],
      paused: false,
      watched: false,
      seen: 0,
      since: 0,
    }
    ;(socket as Tracked)[CONNECTION] = c
    open.add(socket)
    socket.once('close', () => open.delete(socket))
    let letGo: () => void
    try {
      // With the sandbox full, an idle connection of the busiest address makes room (held.ts).
      letGo = held.connections.take(client, {
        evictable: () => c.answers.size === 0 && c.waiting.length === 0,
        evict: () => socket.destroy(),
      })
    } catch (err) {
      if (!(err instanceof OverBound)) throw err
      // Refused connections are cheap, but each is a descriptor: past a few, the newest goes at once.
      if (refusedOpen >= REFUSED_OPEN_MAX) return void socket.destroy()
      c.refused = err
      refusedOpen++
      const grace = setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref()
      socket.once('close', () => {
        refusedOpen--
        clearTimeout(grace)
      })
      return
    }
    socket.once('close', () => {
      letGo()
      c.closing?.()
      unread.delete(c)
      // Requests that waited their turn are let go with the connection: nobody is left to answer.
      c.waiting.length = 0
    })
  })

  // Before Fastify's listener: every request is counted before any hook of its own runs. One
  // listener function for every answer, not a closure each: this runs for every request.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = (req.socket as Tracked)[CONNECTION]
    if (!c) return
    c.requests++
    c.answers.add(res)
    // 'close' follows every answer, sent or cut off (Node's ServerResponse).
    res.on('close', answerClosed)
  })
  function answerClosed(this: ServerResponse): void {
    const c = (this.req.socket as Tracked)[CONNECTION]
    if (!c) return
    c.answers.delete(this)
    if (c.waiting.length > 0 || c.paused || unread.size > 0) pump(c)
    answered?.(c.socket, c.answers.size)
  }

  /**
   * Whether one more request of `c` may run now: the one asking (`queued`: the first of those
   * waiting). `total`: the clients' unread bytes together, counted at most once per pass.
   */
  function mayRun(c: Connection, queued: boolean, total: () => number): boolean {
    // The request asking is among the answers owed; those waiting are not running, nor is the
    // refusal of a burst (queued behind them: counted, it would wait for them forever).
    const refusal = c.refusal !== undefined && c.answers.has(c.refusal) ? 1 : 0
    const running = c.answers.size - c.waiting.length - refusal + (queued ? 1 : 0)
    if (running > maxPipelined) return false
    if (c.socket.writableLength === 0 && c.answers.size <= 1) return true
    const mine = unreadOf(c)
    if (mine === 0) return true
    if (!unread.has(c)) {
      unread.add(c)
      c.seen = c.socket.writableLength
      c.since = Date.now()
      watch ??= setInterval(checkStalled, Math.min(1_000, unreadTimeoutMs / 4)).unref()
    }
    return mine <= maxUnreadBytesPerConnection && total() <= maxUnreadBytes
  }

  /** The clients' unread bytes, counted once for a pass over the connections however many ask. */
  const counter = (): (() => number) => {
    let known: number | undefined
    return () => {
      known ??= totalUnread()
      return known
    }
  }

  /**
   * Runs what waits on `c` while it may. Reads again once nothing waits and every answer is out
   * (never, once it is closing): what is read next may be the client's FIN, at which Node ends the
   * connection at once, before the answers still to come (a burst sent with `printf … | nc`).
   */
  function pump(c: Connection, total = counter()): void {
    if (c.socket.destroyed) return
    while (c.waiting.length > 0 && mayRun(c, true, total)) c.waiting.shift()!()
    if (c.waiting.length === 0 && c.answers.size === 0 && c.paused && !c.closing) {
      c.paused = false
      c.socket.resume()
    }
    if (unreadOf(c) === 0) unread.delete(c)
  }

  /** A client read, or the total went down: connections that waited may go on. */
  function pumpAll(this: Socket | undefined): void {
    const total = counter()
    const c = (this as Tracked | undefined)?.[CONNECTION]
    if (c) pump(c, total)
    for (const u of [...unread]) pump(u, total)
  }

  function checkStalled(): void {
    const now = Date.now()
    for (const c of [...unread]) {
      const left = c.socket.writableLength
      if (c.socket.destroyed || unreadOf(c) === 0) {
        unread.delete(c)
        continue
      }
      if (left < c.seen) {
        c.seen = left
        c.since = now
        continue
      }
      c.seen = left
      if (now - c.since < unreadTimeoutMs) continue
      const message = `a client at ${c.client} left ${unreadOf(c)} bytes of answers unread for ${unreadTimeoutMs} ms (UNREAD_TIMEOUT_MS): disconnected`
      held.refusals.refused('unread answers', c.client, message)
      unread.delete(c)
      c.socket.destroy()
    }
    if (unread.size === 0) {
      clearInterval(watch)
      watch = undefined
    } else pumpAll.call(undefined)
  }

  // Callback-style, not async: this runs for every request, and nearly always lets it through.
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    const refused = refuseEvery()
    if (refused) return done(refused)
    const c = (req.raw.socket as Tracked | undefined)?.[CONNECTION]
    if (!c) return done() // light-my-request: no connection
    if (c.refused) {
      // Node ends the connection after this answer (`Connection: close`).
      reply.raw.shouldKeepAlive = false
      return done(ALWAYS_ANSWERED.has(req.url) ? undefined : c.refused)
    }
    // After its refusal (below), or its connection cut: not processed, and never answered (the
    // connection ends first), so no answer it owes.
    if (c.closing || c.socket.destroyed) {
      c.answers.delete(reply.raw)
      return
    }
    if (c.waiting.length === 0 && mayRun(c, false, totalUnread)) return done()
    if (c.waiting.length >= maxPipelined) return refuseBurst(c, reply, done)
    c.waiting.push(done)
    if (c.paused) return
    c.paused = true
    c.socket.pause()
    if (c.watched) return
    c.watched = true
    // Node resumes a socket it paused itself once it drains; this one stays paused while requests
    // wait (Node's own http server does the same for its pipelining guard).
    c.socket.on('resume', () => {
      if (c.paused) c.socket.pause()
    })
    // The client read: what waited on this connection, or on the total, may go on.
    c.socket.on('drain', pumpAll)
  })

  /**
   * A request past the `maxPipelined` waiting: refused, and the connection ends after it (see the
   * header). Past the `closing` bound, the connection is cut at once instead, as before issue 33.
   */
  function refuseBurst(c: Connection, reply: FastifyReply, done: (err?: Error) => void): void {
    const most = 2 * maxPipelined
    try {
      c.closing = held.closing.take(c.client, {
        evict: () => cut(c, 'to make room for another client (MAX_CLOSING_CONNECTIONS)'),
      })
    } catch (err) {
      if (!(err instanceof OverBound)) throw err
      cut(c, err.message)
      return
    }
    held.refusals.refused(
      'pipelined requests',
      c.client,
      `a client at ${c.client} sent more than ${most} requests on one connection without reading the answers (MAX_PIPELINED_REQUESTS): the ${most} are answered, the rest refused and the connection closed`,
    )
    reply.raw.shouldKeepAlive = false
    c.refusal = reply.raw
    done(
      new OverBound(
        429,
        `more than ${most} requests pipelined on one connection before their answers were read (MAX_PIPELINED_REQUESTS): this request and those sent after it on this connection were not processed; send them again`,
      ),
    )
  }

  /** Ends a connection at once, answers still owed included, and says why. */
  function cut(c: Connection, why: string): void {
    held.refusals.refused(
      'pipelined requests cut',
      c.client,
      `a client at ${c.client} pipelined more than ${2 * maxPipelined} requests on one connection (MAX_PIPELINED_REQUESTS), and ${why}: disconnected`,
    )
    c.socket.destroy()
  }

  app.addHook('onClose', async () => {
    clearInterval(watch)
    watch = undefined
  })

  return {
    open,
    owed(socket) {
      const c = (socket as Tracked)[CONNECTION]
      return c && c.requests > 0 ? c.answers.size : undefined
    },
    onAnswered(fn) {
      answered = fn
    },
    refuseEvery(check) {
      refuseEvery = check
    },
  }
}

/** The connections as the graceful close (drain.ts) sees them. */
export interface ConnectionTracker {
  /** Every open connection. */
  readonly open: ReadonlySet<Socket>
  /**
   * The answers a connection owes: every request received whose answer has not closed; undefined
   * when it never sent a request (or is no connection of this server: light-my-request).
   */
  owed(socket: Socket): number | undefined
  /** Told after each answer closes, with what its connection still owes. */
  onAnswered(fn: (socket: Socket, owed: number) => void): void
  /** Asked first for every request: an error refuses it before anything else (the close). */
  refuseEvery(check: () => Error | undefined): void
}

export type ConnectionOptions = Pick<
  Config,
  'maxPipelined' | 'maxUnreadBytesPerConnection' | 'maxUnreadBytes' | 'unreadTimeoutMs'
>

/** How long a refused connection may take to send the request its refusal answers. */
export const REFUSED_GRACE_MS = 2_000
/** Refused connections awaiting their answer at once; past this the newest is closed unanswered. */
export const REFUSED_OPEN_MAX = 1_024

/** Answered on every connection, refused or not: a full sandbox still says how it is. */
const ALWAYS_ANSWERED = new Set(['/_sandbox/health', '/_sandbox/ready'])

const CONNECTION = Symbol('connection')

interface Connection {
  socket: Socket
  client: string
  /** Requests it has sent. */
  requests: number
  /** Over a bound when it was accepted: its first request is answered with this, then it closes. */
  refused?: OverBound
  /**
   * Set once a request past the pipelining bound was refused: what lets its slot of the `closing`
   * bound go. Nothing after that request is processed, and nothing more is read.
   */
  closing?: () => void
  /** The answer of the request refused for the burst: the last this connection writes. */
  refusal?: ServerResponse
  /** Answers owed: every request received whose answer has not closed. */
  answers: Set<ServerResponse>
  /** Requests waiting their turn (their onRequest callbacks), oldest first. */
  waiting: Array<() => void>
  /** Paused by us: no more bytes read while requests wait. */
  paused: boolean
  /** Listens to its socket's 'resume' and 'drain' (from its first wait on). */
  watched: boolean
  /** Unread bytes at the last look, and since when they have not gone down (the unread timeout). */
  seen: number
  since: number
}

type Tracked = Socket & { [CONNECTION]?: Connection }

/**
 * Bytes answered to `c` that its client has not read: what its socket still buffers, and what the
 * answers queued behind the one being written hold (Node keeps them until their turn).
 */
function unreadOf(c: Connection): number {
  let bytes = c.socket.writableLength
  if (c.answers.size > 1) for (const res of c.answers) if (!res.socket) bytes += res.writableLength
  return bytes
}
