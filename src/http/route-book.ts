import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiError } from '../errors.js'
import { answerAs } from './route-config.js'

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

export const segmentsOf = (path: string) => normalizePath(path).split('/').slice(1)

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

/**
 * Where the router looks first at one segment: a static segment, then a parameter, then a
 * wildcard (find-my-way's order).
 */
const rank = (segment: string) => (segment === '*' ? 2 : segment.startsWith(':') ? 1 : 0)

/**
 * The longest path parameter the router takes (find-my-way's default, set in app.ts): a longer one
 * is no route's (FST_ERR_MAX_PARAM_LENGTH: the surface's 404), nor so a 405.
 */
export const MAX_PARAM_LENGTH = 100

/** A request's path segment as the router reads it: its text, and decoded (undefined: it cannot be). */
interface Segment {
  raw: string
  decoded: string | undefined
}

/**
 * Whether a route's `pattern` takes the request's `path`; a last `*` takes the rest. A parameter
 * the router could not take (over MAX_PARAM_LENGTH, or a malformed percent-escape: Fastify's
 * "bad URL") takes nothing: the router answered such a request with its 404.
 */
function takes(pattern: readonly string[], path: readonly Segment[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const s = pattern[i]!
    if (s === '*') return true
    const p = path[i]
    if (p === undefined || p.decoded === undefined) return false
    if (s.startsWith(':') ? p.raw === '' || p.raw.length > MAX_PARAM_LENGTH : s !== p.decoded) return false
  }
  return pattern.length === path.length
}

/** Whether the router tries `a` before `b` (at their first segment of another kind). */
function triedBefore(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = rank(a[i]!) - rank(b[i]!)
    if (d !== 0) return d < 0
  }
  return false
}

/**
 * Whether some path is taken by both patterns (segments) and the router tries `a` first: a route
 * there hides `b`'s on those paths, and without it they would be `b`'s.
 */
function hides(a: readonly string[], b: readonly string[]): boolean {
  const wild = (x: readonly string[]) => x.at(-1) === '*'
  if (!wild(a) && !wild(b) && a.length !== b.length) return false
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i]!, b[i]!]
    if (x === '*' || y === '*') break
    if (rank(x) === 0 && rank(y) === 0 && x !== y) return false
  }
  return triedBefore(a, b)
}

/** A request's path as the router compares it: percent-escapes decoded segment by segment. */
const requestSegments = (url: string): Segment[] =>
  segmentsOf(url).map(raw => {
    try {
      return { raw, decoded: raw.includes('%') ? decodeURIComponent(raw) : raw }
    } catch {
      return { raw, decoded: undefined }
    }
  })

/** A path's derived "method not allowed": the methods it refuses so, and how. */
export interface NotAllowedPath {
  /** The whole path, with the surface's prefix, as its routes have it. */
  url: string
  /** The methods the path does not answer (HEAD with a refused GET). */
  methods: readonly string[]
  /** The config the request reads as (public: no credentials; the path's error shape). */
  config: FastifyContextConfig
  refuse(method: string): ApiError
}

/**
 * A surface's derived 405s, answered where the router finds no route (Fastify's 404) rather than
 * by a route per path: each would be a route with its context and hooks, inserted in the router
 * once per method it refuses (≈ 680 insertions; docs/performance.md, "Issue 32, point 1, round
 * 4"). Its hooks run where the route's did: `mark` before the surface's own hooks, `refuse` after
 * them (the /v3 rate windows count the request as they counted the route), so it is refused
 * before the body is read, without credentials, in the path's dialect and error shape. Among paths taking the request, the
 * one the router would have tried first answers (a static segment before a parameter). A path
 * whose 405 would hide a parametric route of the same method is still a route (routes.ts), so
 * that the router never hands such a request to the parametric one.
 */
export function createNotAllowed(
  prefix: string,
  routes: ReadonlyArray<{ method: string | string[]; url: string }>,
) {
  const paths: Array<NotAllowedPath & { segments: string[] }> = []
  // The surface's parametric routes (every group's), and the methods each answers.
  const parametric = new Map<string, { segments: string[]; methods: Set<string> }>()
  for (const r of routes) {
    if (!/[:*]/.test(r.url)) continue
    const url = `${prefix}${r.url}`
    const known = parametric.get(url) ?? { segments: segmentsOf(url), methods: new Set<string>() }
    for (const m of [r.method].flat()) known.methods.add(m)
    if (known.methods.has('GET')) known.methods.add('HEAD')
    parametric.set(url, known)
  }
  function find(method: string, url: string): NotAllowedPath | undefined {
    const path = requestSegments(url)
    let found: (typeof paths)[number] | undefined
    for (const p of paths)
      if (
        p.methods.includes(method) &&
        takes(p.segments, path) &&
        (!found || triedBefore(p.segments, found.segments))
      )
        found = p
    return found
  }
  return {
    add(path: NotAllowedPath): void {
      paths.push({ ...path, segments: segmentsOf(path.url) })
    },
    /**
     * The methods that a route of `url` (the whole path) must still answer itself: those a
     * parametric route of the surface answers on paths `url` also takes, where the router tries
     * `url` first. Without a route there, the router would hand such a request to the parametric
     * one (`GET /v3/devices/status` to `GET /v3/devices/:registration_id`).
     */
    hidden(url: string): Set<string> {
      const segments = segmentsOf(url)
      const methods = new Set<string>()
      for (const [other, p] of parametric)
        if (other !== url && hides(segments, p.segments)) for (const m of p.methods) methods.add(m)
      return methods
    },
    find,
    /**
     * The surface's first onRequest hook: a 404 on a path that answers other methods reads, from
     * here on, as that path's derived route (its config: what its error shape is, that it takes
     * no credentials), so the surface's own hooks answer as they answered it (a 429 in its shape).
     */
    mark(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
      const path = req.is404 ? find(req.method, req.url) : undefined
      if (path !== undefined) {
        answerAs(req, path.config)
        ;(req as Marked)[REFUSED] = path
      }
      done()
    },
    /** The onRequest hook after the surface's own: that path's 405. */
    refuse(req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
      const path = (req as Marked)[REFUSED]
      done(path === undefined ? undefined : path.refuse(req.method))
    },
  }
}

const REFUSED = Symbol('derived 405')
type Marked = FastifyRequest & { [REFUSED]?: NotAllowedPath }

export type NotAllowed = ReturnType<typeof createNotAllowed>
