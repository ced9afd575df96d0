import type { ApiError } from '../errors.js'

/**
 * What one API surface calls each failure that is not a route's own: Fastify's refusals, the
 * credentials, the app's standing. Surfaces differ only in these codes (the JSMS table of
 * sms-service.md §7, the JPush tables of jpush-api.md §5.12, §6.6, §7); everything else about
 * mounting one is the same (mount.ts). A route's own failures are its module's to throw.
 */
export interface Dialect {
  /** A path no route takes: unknown, undecodable, or with a parameter over the length limit. */
  notFound(): ApiError
  /**
   * A known path with another method (Fastify alone would say 404); needs no credentials, and is
   * answered before the body is read (a bad or oversized body is not the refusal). `allowed`: the
   * methods the path answers, where the vendor's message names them (JPush 1001); `method`: the
   * one refused, where the message names it (Admin 4001).
   */
  methodNotAllowed(allowed?: readonly string[], method?: string): ApiError
  /** No `Authorization: Basic …` header, or one that does not decode. */
  missingAuth(): ApiError
  /** Wrong credentials; also a refused auto-provisioning, its reason added to the message. */
  authFailed(): ApiError
  /** A devKey no developer has, where the vendor tells it from a wrong devSecret (the Admin API). */
  unknownDeveloper?(): ApiError
  /** An appKey that is not even well-formed (JPush 1008 / 7008); JSMS says authFailed. */
  malformedKey(): ApiError
  /** A body that cannot be read; `reason` words the message where the vendor fixes none. */
  invalidBody(reason?: string): ApiError
  /** No body where one is required; where the vendor has no code for it, an invalid body. */
  missingBody?(): ApiError
  /** Over the body limit (1 MiB, or the route's own). */
  bodyTooLarge(): ApiError
  /** A form or XML body on a JSON endpoint (415); absent: such a body is only an invalid one. */
  mediaNotSupported?(): ApiError
  /** Anything that is not the client's fault; as 503 while the sandbox closes. */
  serverError(): ApiError
  /** The app's standing, checked after its credentials: blacklisted, */
  blacklisted(): ApiError
  /** …calling from outside its IP whitelist, */
  ipNotWhitelisted(): ApiError
  /** …of a frozen developer (also a frozen developer's own devKey login), */
  frozenDeveloper(): ApiError
  /** …without the surface's service enabled; absent where the vendor does not check it. */
  serviceNotEnabled?(): ApiError
  /** Over a rate window, where the surface has one (/v3: push/rate-limit.ts). */
  rateLimited?(): ApiError
  /**
   * A bound on what the sandbox holds (connections, pipelined requests, streams, waits:
   * limits/held.ts): the code it is answered with, where the surface has its own; the status and
   * message are the bound's. Absent: the rate-limit code for a client over its share (429), else
   * the server error's.
   */
  overBound?(): ApiError
}
