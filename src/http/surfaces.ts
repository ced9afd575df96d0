import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { type FrameworkErrors, sendApiError, vendorErrorHandler } from './error-handler.js'

/** Which vendor owns which path prefix: the first match wins, the first entry is the fallback. */
export type Surfaces = ReadonlyArray<readonly [prefix: string, names: FrameworkErrors]>

function namesFor(surfaces: Surfaces, url: string): FrameworkErrors {
  // The router forgives `//` (sdk-wire-capture.md §6), so the choice of envelope does too. It does
  // not forgive case (`/V3/push` is no route), but a client that wrote `/V3/…` is a JPush client
  // all the same: its 404 comes in the JPush envelope.
  const path = url.replace(/\/{2,}/g, '/').toLowerCase()
  const owner = surfaces.find(
    ([prefix]) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`),
  )
  return (owner ?? surfaces[0]!)[1]
}

/**
 * Failures Fastify detects before any route or plugin is chosen — a malformed percent-escape
 * (`/v1/codes/%ZZ/valid`), a path parameter over the length limit — answered in the envelope of
 * the vendor whose prefix the raw URL carries, as "api not found", never in Fastify's own shape.
 * Anything else arriving here (a failing async route constraint) is a server error, not a 404.
 */
export function frameworkErrors(surfaces: Surfaces) {
  return (err: Error, req: FastifyRequest, reply: FastifyReply) =>
    vendorErrorHandler(namesFor(surfaces, req.url))(err, req, reply)
}

/** Paths outside every surface (`/`, `/v2/…`) still answer in a vendor envelope. */
export function notFoundOutsideSurfaces(surfaces: Surfaces) {
  return (req: FastifyRequest, reply: FastifyReply) =>
    sendApiError(reply, namesFor(surfaces, req.url).notFound())
}

/** …and so do failures there before the 404 is reached (a 2 MiB body is refused first: 403 50007). */
export function errorsOutsideSurfaces(surfaces: Surfaces) {
  return (err: Error, req: FastifyRequest, reply: FastifyReply) =>
    vendorErrorHandler(namesFor(surfaces, req.url))(err, req, reply)
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
export function clientErrors(surfaces: Surfaces): ClientErrorHandler {
  // The request each connection is receiving, from the 'request' event (its headers are in).
  const receiving = new WeakMap<Socket, { method: string; url: string; res: ServerResponse }>()
  const onClientError = (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    // A reset connection has nobody left to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return
    const [status, reason] = CLIENT_ERRORS[err.code ?? ''] ?? [400, 'Bad Request']
    const packet = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.toString('latin1') : ''
    const line = /^([A-Z]+) (\S+)/.exec(packet)
    const current = receiving.get(socket)
    // An answer already going out on this connection: bytes of ours would corrupt it (Node's rule).
    if (current?.res.headersSent && !current.res.writableEnded) return void socket.destroy(err)
    // The request line if the parser read it; else the request whose body was still arriving.
    const request = line
      ? { method: line[1], url: line[2] }
      : current && !current.res.headersSent
        ? current
        : undefined
    const body = JSON.stringify(
      namesFor(surfaces, request?.url ?? '')
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
      receiving.set(req.socket, { method: req.method ?? '', url: req.url ?? '', res })
    })
  }
  return Object.assign(onClientError, { watch })
}
