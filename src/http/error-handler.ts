import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.js'
import { OverBound } from '../limits/held.js'
import type { Dialect } from './dialect.js'
import { routeConfig } from './route-config.js'
import { ShuttingDown } from './socket/drain.js'

/**
 * What the client did wrong, as Fastify (or the request stream) reports it: a body that does not
 * match its Content-Length, a schema the request fails, a client that hung up mid-body. Only these
 * are the client's fault. Anything else is a server error whatever `statusCode` it carries:
 * @fastify/basic-auth, for one, labels every error thrown by `validate` 401, a database failure
 * included.
 */
const CLIENT_FAULTS = new Set([
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_VALIDATION',
  'ECONNRESET',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
])

/** Turns anything thrown into `{"error":{"code","message"}}` with the vendor's code and status. */
export function toApiError(err: unknown, dialect: Dialect): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof ShuttingDown) return new ApiError(503, dialect.serverError().code, err.message)
  if (err instanceof OverBound) return new ApiError(err.status, overBoundCode(err, dialect), err.message)
  const e = (err ?? {}) as Partial<FastifyError>
  switch (e.code) {
    case 'FST_BASIC_AUTH_MISSING_OR_BAD_AUTHORIZATION_HEADER':
      return dialect.missingAuth()
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return dialect.bodyTooLarge()
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return dialect.mediaNotSupported?.() ?? dialect.invalidBody()
    // A path no route can take: undecodable, or a parameter over maxParamLength.
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return dialect.notFound()
  }
  if (e.validation || CLIENT_FAULTS.has(e.code ?? '')) return dialect.invalidBody()
  return dialect.serverError()
}

/** The code of a refusal by a bound (limits/held.ts) in the surface's words. */
function overBoundCode(err: OverBound, dialect: Dialect): number {
  const own = dialect.overBound?.() ?? (err.status === 429 ? dialect.rateLimited?.() : undefined)
  return (own ?? dialect.serverError()).code
}

/**
 * Writes a vendor error: its status, and `{"error":{"code","message"}}` plus its extra fields. The
 * request keeps it (`refusal`): its code and reason go to the log line, the request journal and
 * the metrics.
 */
export function sendApiError(reply: FastifyReply, e: ApiError): FastifyReply {
  reply.request.refusal = e
  return reply.code(e.status).type('application/json; charset=utf-8').send(e.toBody())
}

/** The vendor code of the error the reply answered with, if it was one (the metrics count it). */
export function vendorCodeOf(reply: FastifyReply): number | undefined {
  return reply.request.refusal?.code
}

/**
 * An error handler answering in one vendor's envelope; server errors are logged, not shown. A
 * 5xx the sandbox answers on purpose (an armed fault, the close refusing a late request) is no
 * failure: its one request line says its code and reason (request-log.ts), without a stack.
 */
export function vendorErrorHandler(dialect: Dialect) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const config = routeConfig(req)
    const extra = config?.errorExtra
    const apiError = extra ? toApiError(err, dialect).withExtra(extra) : toApiError(err, dialect)
    // A refusal while shutting down, or by a bound, is the sandbox working, not a failure; an
    // ApiError answering 5xx is one on purpose (an armed fault).
    if (
      apiError.status >= 500 &&
      !(err instanceof ApiError) &&
      !(err instanceof ShuttingDown) &&
      !(err instanceof OverBound)
    )
      req.log.error({ err }, 'request failed')
    if (config?.errorShape === 'flat') {
      reply.request.refusal = apiError
      return reply
        .code(apiError.status)
        .type('application/json; charset=utf-8')
        .send({ code: apiError.code, message: apiError.message })
    }
    return sendApiError(reply, apiError)
  }
}
