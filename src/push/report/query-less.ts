import type { FastifyRequest } from 'fastify'

/**
 * jpush-async (both its promise and callback APIs) sends every request through its Request2, whose
 * path is `new URL(url).pathname` (node_modules/jpush-async/lib/JPush/Request2.js:28): the query
 * string never leaves it (sdk-wire-capture.md §4.3), so its report calls arrive as a bare
 * `GET /v3/received`. It names itself in its User-Agent (Request2.js:14,
 * `JPush-API-NodeJS-Client <version>`). Only such a request gets a report without its query (the
 * latest push, today by day); any other client that leaves out `msg_ids` or `time_unit` is told so
 * (3002), as the vendor tells a missing parameter (issue 29, point 7).
 */
export function dropsItsQuery(req: FastifyRequest): boolean {
  return /^JPush-API-NodeJS-Client\b/.test(String(req.headers['user-agent'] ?? ''))
}
