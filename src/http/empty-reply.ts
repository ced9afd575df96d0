import type { FastifyReply } from 'fastify'

/**
 * HTTP 200 with an empty body, as the vendors answer a DELETE (jsms-api.md §1.4: `Content-Type:
 * application/json`, `Content-Length: 0`). Python then returns the status code, PHP a null body.
 */
export function emptyOk(reply: FastifyReply): FastifyReply {
  return reply.code(200).type('application/json').header('content-length', 0).send()
}
