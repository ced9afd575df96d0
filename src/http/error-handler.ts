import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ApiError } from '../errors.js'
import { ShuttingDown } from './drain.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Top-level fields added to every failure of the route, wherever it was detected (auth, body
     * parsing, handler): the JSMS verify route answers `"is_valid": false` (jsms-api.md §1.5).
     */
    errorExtra?: Record<string, unknown>
  }
}

/** How one vendor names the failures Fastify itself detects. */
export interface FrameworkErrors {
  notFound(): ApiError
  missingAuth(): ApiError
  /** `reason` words the message where the vendor fixes none (JSMS keeps its literal). */
  invalidBody(reason?: string): ApiError
  bodyTooLarge(): ApiError
  mediaNotSupported(): ApiError
  serverError(): ApiError
}

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
export function toApiError(err: unknown, names: FrameworkErrors): ApiError {
  if (err instanceof ApiError) return err
  if (err instanceof ShuttingDown) return new ApiError(503, names.serverError().code, err.message)
  const e = (err ?? {}) as Partial<FastifyError>
  switch (e.code) {
    case 'FST_BASIC_AUTH_MISSING_OR_BAD_AUTHORIZATION_HEADER':
      return names.missingAuth()
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return names.bodyTooLarge()
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return names.mediaNotSupported()
    // A path no route can take: undecodable, or a parameter over maxParamLength.
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return names.notFound()
  }
  if (e.validation || CLIENT_FAULTS.has(e.code ?? '')) return names.invalidBody()
  return names.serverError()
}

/** Writes a vendor error: its status, and `{"error":{"code","message"}}` plus its extra fields. */
export function sendApiError(reply: FastifyReply, e: ApiError): FastifyReply {
  return reply.code(e.status).type('application/json; charset=utf-8').send(e.toBody())
}

/** An error handler answering in one vendor's envelope; server errors are logged, not shown. */
export function vendorErrorHandler(names: FrameworkErrors) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const extra = req.routeOptions.config?.errorExtra
    const apiError = extra ? toApiError(err, names).withExtra(extra) : toApiError(err, names)
    // A refusal while shutting down is the close working, not a failure.
    if (apiError.status >= 500 && !(err instanceof ShuttingDown)) req.log.error({ err }, 'request failed')
    return sendApiError(reply, apiError)
  }
}

/** One error handler and one not-found handler per API surface (encapsulated by its prefix). */
export function useVendorErrors(app: FastifyInstance, names: FrameworkErrors): void {
  app.setErrorHandler(vendorErrorHandler(names))
  app.setNotFoundHandler((_req, reply) => sendApiError(reply, names.notFound()))
}
