import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteGenericInterface,
} from 'fastify'
import type { AppDeps } from '../deps.js'
import { type RouteDocs, type RouteSurface, SURFACE } from '../openapi/route-docs.js'
import type { Dialect } from './dialect.js'

/**
 * One route of a surface, typed by what it takes, so a reader sees it without opening the
 * handler: `route<{ Params: { temp_id: string } }>({ … })`. Vendor routes declare no schema
 * (their lenient readers decide, in the vendor's order of codes); the control plane's declare
 * zod schemas (schema-route.ts).
 */
export interface RouteSpec<Takes extends RouteGenericInterface = RouteGenericInterface> {
  method: HTTPMethods | HTTPMethods[]
  url: string
  config?: FastifyContextConfig
  bodyLimit?: number
  schema?: FastifySchema
  /**
   * What GET /_sandbox/openapi.json says of the route. Every /v1 and /v3 route has one (a test
   * fails otherwise); Fastify never reads it, so it changes no answer (openapi/route-docs.ts).
   */
  docs?: RouteDocs
  /**
   * Methods of this path that stay unknown paths (the surface's 404) rather than derived 405s: a
   * parametric path shadows its siblings' other methods (`DELETE /v3/push/:msg_id` would make
   * `POST /v3/push/template`, not emulated, a 405 "only POST").
   */
  unknownMethods?: HTTPMethods[]
  // A method, not a function property: its parameters compare bivariantly, so routes that take
  // different things still make one table.
  handler(req: FastifyRequest<Takes>, reply: FastifyReply<Takes>): Promise<unknown>
}

/** A route whose handler is checked against what it says it takes. */
export const route = <Takes extends RouteGenericInterface>(spec: RouteSpec<Takes>): RouteSpec<Takes> => spec

/** A module's routes, made from the app's dependencies: one entry of a surface's list in app.ts. */
export type RouteTable = (deps: AppDeps) => RouteSpec[]

/**
 * Each route, and again at its alias path when its first segment has one (`{ tags: 'device/tags' }`:
 * `/tags/:tag` is also `/device/tags/:tag`). The alias is the same route (handler, config), so it
 * is the same operation everywhere: its group, its codes, its limits.
 */
export function withAliases(routes: RouteSpec[], aliases: Readonly<Record<string, string>>): RouteSpec[] {
  return routes.flatMap(r => {
    const [, first = '', rest = ''] = /^\/([^/]*)(.*)$/.exec(r.url) ?? []
    const to = Object.hasOwn(aliases, first) ? aliases[first] : undefined
    return to === undefined ? [r] : [r, { ...r, url: `/${to}${rest}` }]
  })
}

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/**
 * Registers a route table, then answers every other method on the same paths with the dialect's
 * "method not allowed" (Fastify alone would say 404). Those answers need no credentials. Each
 * route carries its surface for the OpenAPI document (the failures the surface's routes share).
 */
export function defineRoutes(
  app: FastifyInstance,
  routes: RouteSpec[],
  dialect: Dialect,
  { standing = true }: { standing?: boolean } = {},
): void {
  const surface: RouteSurface = { dialect, standing }
  // Per path, the methods it answers, and those no 405 is derived for (answered or unknown).
  const byUrl = new Map<string, Set<string>>()
  for (const { unknownMethods = [], ...r } of routes) {
    const documented = { ...r, [SURFACE]: surface }
    app.route(documented)
    const methods = byUrl.get(r.url) ?? new Set()
    for (const m of [r.method, ...unknownMethods].flat()) methods.add(m)
    byUrl.set(r.url, methods)
  }
  for (const [url, methods] of byUrl) {
    const others = METHODS.filter(m => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')))
    if (others.length === 0) continue
    const derived = {
      method: others,
      url,
      config: { public: true },
      [SURFACE]: { ...surface, methodNotAllowed: true },
      handler: async () => {
        throw dialect.methodNotAllowed()
      },
    }
    app.route(derived)
  }
}
