import type { ServerOptions } from 'node:http'

/**
 * How long a client may take to send a whole request, headers and body: past it the request is
 * answered 408 in its vendor's envelope (surfaces.ts `clientErrors`) and the connection closed, so
 * a client that trickles its body cannot hold a connection and a half-read request forever.
 *
 * - Node's `requestTimeout` counts from the request's first byte until it has fully arrived; the
 *   handler's own time does not count (a long clock move is not cut). Fastify's `requestTimeout`
 *   option sets it; Fastify's default, 0, turned it off, and that was the bug.
 * - Node's `headersTimeout` must not exceed it (Node refuses to start otherwise): the headers get
 *   the same budget, so a slowloris client is cut at the same moment.
 * - Node looks for late requests every `connectionsCheckingInterval` (30 s by default, which would
 *   double a 30 s limit): a tenth of the limit, at most a second, keeps the answer close to it.
 * - Fastify's `connectionTimeout` (socket inactivity) stays off: it destroys the socket without an
 *   answer, and idle keep-alive connections already close after `keepAliveTimeout`.
 */
export function requestTimeouts(timeoutMs: number): { requestTimeout: number; http: ServerOptions } {
  // 0: no limit, as in Node; headers keep Node's own default then.
  if (timeoutMs === 0) return { requestTimeout: 0, http: { requestTimeout: 0, headersTimeout: 60_000 } }
  const checkEvery = Math.max(10, Math.min(1_000, Math.floor(timeoutMs / 10)))
  return {
    requestTimeout: timeoutMs,
    http: { requestTimeout: timeoutMs, headersTimeout: timeoutMs, connectionsCheckingInterval: checkEvery },
  }
}
