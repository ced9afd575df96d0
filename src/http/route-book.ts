import type { FastifyInstance } from 'fastify'

/**
 * The routes the surfaces really serve, as Fastify registers them (its `onRoute` hook), without
 * the derived 405s and public routes (config.public): what an armed fault may name. Fastify's own
 * `findRoute` cannot tell a derived 405 from a route (it hands back one shared internal handler),
 * so the book matches paths itself, with the router's options: `//` and a trailing `/` forgiven,
 * case kept, a `:param` segment matching any one segment (a route pattern matches itself).
 */
export interface RouteBook {
  /** The methods (HEAD included where GET is) that a route answers on `path`. */
  methodsOf(path: string): string[]
}

/** A path as the router reads it: without its query, `//` collapsed, no trailing `/`. */
export const normalizePath = (url: string) =>
  (url.split('?')[0] ?? '').replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1')

const segmentsOf = (path: string) => normalizePath(path).split('/').slice(1)

const matches = (pattern: string[], path: string[]) =>
  pattern.length === path.length &&
  pattern.every((s, i) => (s.startsWith(':') ? path[i] !== '' : s === path[i]))

/** Whether `path` (concrete, or a pattern) is one `pattern` (a route's, or a concrete path) takes. */
export const pathMatches = (pattern: string, path: string) => matches(segmentsOf(pattern), segmentsOf(path))

export function createRouteBook(app: FastifyInstance): RouteBook {
  const routes: Array<{ methods: string[]; segments: string[] }> = []
  app.addHook('onRoute', route => {
    if (route.config?.public) return
    routes.push({ methods: [route.method].flat(), segments: segmentsOf(route.url ?? route.path) })
  })
  return {
    methodsOf(path) {
      const segments = segmentsOf(path)
      const methods = new Set<string>()
      for (const r of routes) if (matches(r.segments, segments)) for (const m of r.methods) methods.add(m)
      return [...methods]
    },
  }
}
