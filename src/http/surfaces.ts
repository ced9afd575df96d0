import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Dialect } from './dialect.js'
import { sendApiError, vendorErrorHandler } from './error-handler.js'
import { type NotAllowed, normalizePath } from './route-book.js'
import { answerAs } from './route-config.js'

/**
 * Which surface's envelope answers a path, for the failures no surface's own handlers see: those
 * Fastify detects before routing, paths outside every prefix, and what Node's HTTP parser refuses.
 * mount() adds each surface's prefix with its dialect; the longest matching prefix wins, and
 * `fallback` answers for paths outside them all.
 */
export function createEnvelopes(fallback: Dialect) {
  const prefixes: Array<readonly [prefix: string, dialect: Dialect]> = []

  function dialectFor(url: string): Dialect {
    // The router forgives `//` (sdk-wire-capture.md §6), so the choice of envelope does too. It
    // does not forgive case (`/V3/push` is no route), but a client that wrote `/V3/…` is a JPush
    // client all the same: its 404 comes in the JPush envelope.
    const path = url.replace(/\/{2,}/g, '/').toLowerCase()
    const owner = prefixes.find(
      ([prefix]) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
    )
    return owner?.[1] ?? fallback
  }

  /**
   * An error handler in the envelope of the vendor whose prefix the raw URL carries: a malformed
   * percent-escape (`/v1/codes/%ZZ/valid`) or a path parameter over the length limit is that
   * vendor's "api not found", never Fastify's own shape; anything else arriving here (a failing
   * async route constraint, a 2 MiB body to an unknown path) is that vendor's answer to it too.
   */
  const errorHandler = (err: Error, req: FastifyRequest, reply: FastifyReply) =>
    vendorErrorHandler(dialectFor(req.url))(err, req, reply)

  // Each surface's derived 405s (route-book.ts), longest prefix first.
  const refusals: Array<readonly [prefix: string, notAllowed: NotAllowed]> = []
  /** Whether Fastify's 404 routing hands `url` to a surface (its 404 router: `<prefix>` and `<prefix>/*`, no `//` forgiven). */
  const inSurface = (url: string) => {
    const path = safeDecode(url.split('?')[0] ?? '')
    return refusals.some(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))
  }

  return {
    dialectFor,
    add(prefix: string, dialect: Dialect): void {
      prefixes.push([prefix.toLowerCase(), dialect])
      prefixes.sort((a, b) => b[0].length - a[0].length)
    },
    errorHandler,
    /** The surface at `prefix` answers its paths' other methods so (mount.ts). */
    addNotAllowed(prefix: string, notAllowed: NotAllowed): void {
      refusals.push([prefix, notAllowed])
      refusals.sort((a, b) => b[0].length - a[0].length)
    },
    /**
     * A root onRequest hook: the derived 405 of a path the router forgives (`//v1//messages` is
     * `/v1/messages` to it) but Fastify's 404 routing does not hand to the surface (its 404 router
     * forgives no `//`), so that the surface's own hook never sees it. Such a request meets none of
     * the surface's hooks, as its 404 never did (the /v3 rate windows do not count it). Case is
     * kept, as the router keeps it: `/V1/messages` is no path of any surface.
     */
    notAllowedOutside(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
      const path = req.is404 && !inSurface(req.url) ? normalizePath(req.url) : undefined
      const owner = path && refusals.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))
      const found = owner ? owner[1].find(req.method, req.url) : undefined
      if (found === undefined) {
        done()
        return
      }
      answerAs(req, found.config)
      done(found.refuse(req.method))
    },
    /** Paths outside every surface (`/`, `/v2/…`) still answer in a vendor envelope. */
    notFound: (req: FastifyRequest, reply: FastifyReply) =>
      sendApiError(reply, dialectFor(req.url).notFound()),
    clientErrors: clientErrors(dialectFor),
    /**
     * CONNECT (a proxy's tunnel request): Node hands it to the server's 'connect' listeners and,
     * with none, destroys the connection unanswered. No route takes it: the "method not allowed"
     * of the surface its target names (an authority such as `example.com:443` names none: the
     * fallback's), and the connection closed. (Requests with `Upgrade:` reach the routes as
     * usual: Node treats them as such when nobody listens for 'upgrade'.)
     */
    connect(req: IncomingMessage, socket: Duplex): void {
      const e = dialectFor(req.url ?? '').methodNotAllowed(undefined, req.method)
      const body = JSON.stringify(e.toBody())
      socket.on('error', () => {}) // a client gone meanwhile: nobody left to answer
      socket.end(
        `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
      )
    },
  }
}

export type Envelopes = ReturnType<typeof createEnvelopes>

/** A path with its percent-escapes decoded where they are well-formed, as the routers read it. */
function safeDecode(path: string): string {
  try {
    return path.includes('%') ? decodeURI(path) : path
  } catch {
    return path
  }
}

const CLIENT_ERRORS: Record<string, [status: number, reason: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
}

/** What Node's HTTP parser refuses before any route sees it, answered in the vendor's envelope. */
export type ClientErrorHandler = ((
  err: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
) => void) & {
  /** Follows the requests `server` receives, so a late failure knows the path it belongs to. */
  watch(server: Server): void
}

/**
 * Requests Node's HTTP parser refuses (a Content-Length that lies, broken chunking, bytes that are
 * not HTTP) or gives up on (a request that has not fully arrived within the request timeout: 408):
 * the status Node would send, but the vendor's envelope (its "invalid body" code) in place of
 * Fastify's `{"error":"Bad Request",…}`. The path, and so the vendor, comes from the request line
 * when the parser got that far, or from the request whose body was still arriving.
 */
function clientErrors(dialectFor: (url: string) => Dialect): ClientErrorHandler {
  // The answer to the request each connection is receiving, from the 'request' event (its headers
  // are in): a property of the socket, set for every request (a WeakMap entry cost ~1 µs each).
  const receivingOf = (socket: Socket) => {
    const res = (socket as ReceivingSocket)[RECEIVING]
    return res && { method: res.req.method ?? '', url: res.req.url ?? '', req: res.req, res }
  }
  const onClientError = (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const [status, reason] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request']
    const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : ''
    const line = /^([A-Z]+) (\S+)/.exec(packet)
    const current = receivingOf(socket)
    // An answer already going out on this connection: bytes of ours would corrupt it (Node's rule).
    if (current?.res.headersSent && !current.res.writableEnded) return void socket.destroy(err)
    // The request line if the parser read it; else the request whose body was still arriving,
    // even if it was answered early (a refused login answers before the body is read).
    const request = line
      ? { method: line[1], url: line[2] }
      : current && (!current.res.headersSent || !current.req.complete)
        ? current
        : undefined
    const body = JSON.stringify(
      dialectFor(request?.url ?? '')
        .invalidBody()
        .toBody(),
    )
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n` +
          // RFC 9110 §9.3.2: the answer to a HEAD carries the header fields of a GET, never a body.
          (request?.method === 'HEAD' ? '' : body),
      )
    }
    socket.destroy(err)
  }
  const watch = (server: Server) => {
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      ;(req.socket as ReceivingSocket)[RECEIVING] = res
    })
  }
  return Object.assign(onClientError, { watch })
}

const RECEIVING = Symbol('answer being received')
type ReceivingSocket = Socket & { [RECEIVING]?: ServerResponse }
