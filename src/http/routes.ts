import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify'

export type RouteSpec = Pick<RouteOptions, 'method' | 'url' | 'handler' | 'config' | 'bodyLimit' | 'schema'>

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/**
 * Registers a route table, then answers every other method on the same paths with the vendor's
 * "method not supported" error (Fastify alone would say 404). Those answers need no credentials.
 */
export function defineRoutes(app: FastifyInstance, routes: RouteSpec[], methodNotAllowed: () => Error): void {
  const byUrl = new Map<string, Set<string>>()
  for (const r of routes) {
    app.route(r)
    const methods = byUrl.get(r.url) ?? new Set()
    for (const m of [r.method].flat()) methods.add(m)
    byUrl.set(r.url, methods)
  }
  for (const [url, methods] of byUrl) {
    const others = METHODS.filter(m => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')))
    if (others.length === 0) continue
    app.route({
      method: others,
      url,
      config: { public: true },
      handler: async () => {
        throw methodNotAllowed()
      },
    })
  }
}
