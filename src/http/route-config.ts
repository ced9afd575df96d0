import type { FastifyContextConfig, FastifyRequest } from 'fastify'

const CONFIG = Symbol('route config')

/**
 * The route's `config` (auth, public, body, exactIntegers, errorExtra). Fastify's
 * `req.routeOptions` builds a new object of a dozen fields at every read, and the hooks every
 * request runs (auth, body, faults, rate window) each asked it: the config is read once per request.
 */
export function routeConfig(req: FastifyRequest): FastifyContextConfig | undefined {
  const memo = req as FastifyRequest & { [CONFIG]?: FastifyContextConfig | null }
  let config = memo[CONFIG]
  if (config === undefined) {
    config = req.routeOptions.config ?? null
    memo[CONFIG] = config
  }
  return config ?? undefined
}

/**
 * A request no route took (Fastify's 404) whose path answers other methods: from here on it reads
 * as the derived 405 route its path would have had (route-book.ts, `createNotAllowed`).
 */
export function answerAs(req: FastifyRequest, config: FastifyContextConfig): void {
  ;(req as FastifyRequest & { [CONFIG]?: FastifyContextConfig | null })[CONFIG] = config
}
