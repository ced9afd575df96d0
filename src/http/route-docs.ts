import type { z } from 'zod'
import type { ApiError } from '../errors.js'
import type { OperatorRefusals } from './auth/operator.js'
import type { Dialect } from './dialect.js'

// What the OpenAPI document says of a route (GET /_sandbox/openapi.json), in one shape for every
// route: a vendor route's is derived from its declaration (vendorRoute, http/routes.ts), a
// control-plane route's written beside its zod schemas (schemaRoute, http/schema.ts). Only the
// document reads it: Fastify never validates or serializes with it, so documenting a vendor route
// cannot change one byte of what that route answers (test/openapi/vendor-bytes.test.ts).

/** A success answer that is not JSON: its media type, or `null` for an empty body. */
export interface OtherAnswer {
  description: string
  media: string | null
}

export interface RouteDocs {
  /** One line, in the vendor's vocabulary; the first thing the docs page shows. */
  summary: string
  /** Markdown: the rules a caller needs, with the spec section they come from. */
  description?: string
  /**
   * What the route takes: a vendor route's parts as its readers declare them; a route with zod
   * `schema` (the control plane) is described by its schemas instead.
   */
  params?: z.ZodType
  querystring?: z.ZodType
  body?: z.ZodType
  /** The body's media type when it is not JSON (the multipart signature forms). */
  bodyMedia?: string
  /** Success answers by status: the JSON body's schema, or another kind of body. */
  answers?: Record<number, z.ZodType | OtherAnswer>
  /**
   * The route's own failures, from its surface's error table, in the order the route checks them
   * (a vendor route's: its reads', then its checks'). The failures every route of the surface
   * shares (credentials, standing, body, rate window, server error) come from the surface's dialect
   * and need not be listed.
   */
  errors?: readonly ApiError[]
}

/** The surface a route was mounted on (http/mount.ts), for the failures its routes share. */
export interface RouteSurface {
  dialect: Dialect
  /** Whether the app's standing (blacklist, IP whitelist, frozen developer…) is checked. */
  standing: boolean
  /** A derived "method not allowed" route (http/routes.ts): not an operation of its own. */
  methodNotAllowed?: true
  /** The surface takes the operator's credentials (auth/operator.ts), refusing them so. */
  operator?: OperatorRefusals
}

/** Where defineRoutes leaves each route's surface for the document (a key Fastify ignores). */
export const SURFACE = Symbol('surface')

/** Each failure once (by status, code and message), where it first appears. */
export function eachOnce(errors: readonly ApiError[]): ApiError[] {
  const seen = new Set<string>()
  return errors.filter(e => {
    const key = `${e.status} ${e.code} ${e.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
