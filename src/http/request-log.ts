import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'

/** A token in the query string (GET /_sandbox/events?token=…) opens a stream: never logged. */
export function redactUrl(url: string): string {
  return url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/g, '$1[redacted]') : url
}

/**
 * One log line per request, when it completes, with the method, url, status and time (Fastify's
 * default writes two: "incoming request" and "request completed"). At the default level the log
 * is one of the largest per-request costs (docs/performance.md), and the first line says nothing
 * the second cannot. Headers, so the Authorization header, are never part of it, nor a token.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      req: { method: request.method, url: redactUrl(request.url) },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request completed')
  }
}
