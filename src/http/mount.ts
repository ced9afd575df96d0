import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type AuthDeps, type AuthHooks, registerBasicAuth } from './auth/auth.js'
import type { OperatorRefusals } from './auth/operator.js'
import { acceptAnyBody } from './body/json-body.js'
import type { Dialect } from './dialect.js'
import { sendApiError, vendorErrorHandler } from './error-handler.js'
import { createNotAllowed, type NotAllowed } from './route-book.js'
import { defineRoutes, type RouteSpec, type RouteTable, withAliases } from './routes.js'
import { useSchemas } from './schema.js'
import type { Envelopes } from './surfaces.js'

/** A vendor host sharing a surface's prefix (jpush-api.md §1.1: device and report under /v3). */
export interface RouteGroup<D> {
  dialect: Dialect
  /** The first path segments under the prefix that are this host's. */
  paths: readonly string[]
  routes: RouteTable<D>[]
  /**
   * The same routes under a second path shape, by first segment (`{ devices: 'device' }` also
   * answers `/devices/:id` at `/device/:id`): same handlers, dialect and hooks (routes.ts).
   */
  aliases?: Readonly<Record<string, string>>
}

export interface MountOptions<D> {
  /**
   * Check the app's standing (blacklist, frozen developer, IP whitelist, service) after its
   * credentials. Default true; the control plane lets such an app still look inside.
   */
  standing?: boolean
  /**
   * Hooks on every route of the surface after authentication and the catch-up, before the
   * handler: the faults armed through /_sandbox/faults on the vendor surfaces (app.ts).
   */
  beforeHandler?: (scope: FastifyInstance) => void
  /** Other vendor hosts under the same prefix, each with its own dialect. */
  groups?: RouteGroup<D>[]
  /**
   * The surface's own hooks, on its whole prefix (404s included); what they return joins
   * authentication (the /v3 rate windows, push/rate-limit.ts).
   */
  hooks?: (surface: FastifyInstance, deps: D) => AuthHooks
  /**
   * The surface takes the operator's credentials (SANDBOX_OPERATOR: auth/operator.ts), refusing
   * them as these say; without it they are wrong credentials there.
   */
  operator?: OperatorRefusals
}

/**
 * What mounting a surface uses itself: authentication's dependencies, and the scheduler's catch-up
 * of the app's due work, run before each handler (scheduler/catch-up.ts).
 */
export type MountDeps = AuthDeps & {
  scheduler: { catchUp(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void }
  /** An app's requests wait while it is being replaced (an import: app-gate.ts). */
  appGate?: { hook(req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void }
}

/**
 * `mount(prefix, dialect, routes, options)`: one API surface, always in the same five steps, each
 * failure named by the surface's dialect:
 * 1. the catch-all body parser (json-body.ts): JSON whatever the Content-Type, or a form's bytes;
 *    routes that declare zod schemas (the control plane's) are validated by them (schema.ts);
 * 2. its error and 404 handlers, encapsulated by the prefix, so each vendor's envelope stays its own;
 * 3. HTTP Basic auth (auth.ts), with or without the app's standing, then a wait while the app is
 *    being replaced (an import: app-gate.ts), then the app's due work caught up to its now
 *    (scheduler/catch-up.ts), so no handler settles anything on its own;
 * 4. the surface's `beforeHandler` hooks (the armed faults: across/faults/faults.ts);
 * 5. its routes, each also at its group's alias paths, with the 405s of their paths derived (routes.ts,
 *    answered by the surface's hook where the router finds no route: route-book.ts).
 * Its prefix also joins the envelope table for failures no surface sees (surfaces.ts).
 */
export function mounter<D extends MountDeps>(app: FastifyInstance, deps: D, envelopes: Envelopes) {
  return async function mount(
    prefix: string,
    dialect: Dialect,
    routes: RouteTable<D>[],
    { standing = true, beforeHandler, groups = [], hooks, operator }: MountOptions<D> = {},
  ): Promise<void> {
    envelopes.add(prefix, dialect)
    for (const group of groups)
      for (const path of [...group.paths, ...Object.values(group.aliases ?? {})])
        envelopes.add(`${prefix}/${path}`, group.dialect)

    async function mountGroup(
      scope: FastifyInstance,
      own: Dialect,
      list: RouteSpec[],
      notAllowed: NotAllowed,
      auth?: AuthHooks,
    ) {
      acceptAnyBody(scope, own)
      useSchemas(scope, own)
      scope.setErrorHandler(vendorErrorHandler(own))
      await registerBasicAuth(scope, deps, own, { standing, hooks: auth, operator })
      if (deps.appGate) scope.addHook('preHandler', deps.appGate.hook)
      scope.addHook('preHandler', deps.scheduler.catchUp)
      beforeHandler?.(scope)
      defineRoutes(scope, list, own, { standing, operator, notAllowed })
    }

    await app.register(
      async surface => {
        surface.setNotFoundHandler((_req, reply) => sendApiError(reply, dialect.notFound()))
        const all = [{ dialect, routes, aliases: {} }, ...groups].map(g => ({
          dialect: g.dialect,
          list: withAliases(
            g.routes.flatMap(table => table(deps)),
            g.aliases ?? {},
          ),
        }))
        // The derived 405s of every group's paths, around the surface's own hooks (route-book.ts).
        const notAllowed = createNotAllowed(
          prefix,
          all.flatMap(g => g.list),
        )
        surface.addHook('onRequest', notAllowed.mark)
        const auth = hooks?.(surface, deps)
        surface.addHook('onRequest', notAllowed.refuse)
        envelopes.addNotAllowed(prefix, notAllowed)
        // One surface, one context: mountGroup sets its error handler (once per scope).
        if (groups.length === 0) return mountGroup(surface, dialect, all[0]!.list, notAllowed, auth)
        // Hosts sharing a prefix each get a context of their own (parser, auth codes, routes); what
        // no group answers (the prefix's unknown paths) fails in the surface's own context.
        surface.setErrorHandler(vendorErrorHandler(dialect))
        for (const group of all)
          await surface.register(async scope =>
            mountGroup(scope, group.dialect, group.list, notAllowed, auth),
          )
      },
      { prefix },
    )
  }
}
