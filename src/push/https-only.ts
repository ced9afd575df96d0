import type { FastifyReply, FastifyRequest } from 'fastify'
import { sendApiError } from '../http/error-handler.js'
import { pushErrors } from './errors.js'

// HTTPS_ONLY (config.ts): the vendor serves /v3 over HTTPS only and answers plain HTTP with
// 404 1020 (jpush-api.md §5.11, docs2019). A request came over TLS when its socket is the TLS
// listener's (tls/listener.ts hands its TLSSocket to the same HTTP server). JSMS documents no
// such code, so /v1 is left alone.

const V3 = /^\/v3(?:[/?]|$)/

export function refusePlainHttp(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const encrypted = (req.raw.socket as { encrypted?: boolean } | null)?.encrypted === true
  if (encrypted || !V3.test(req.url)) done()
  else sendApiError(reply, pushErrors.httpsOnly())
}
