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
