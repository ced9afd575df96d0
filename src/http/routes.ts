import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteGenericInterface,
} from 'fastify'
import type { z } from 'zod'
import { ApiError } from '../errors.js'
import type { OperatorRefusals } from './auth/operator.js'
import type { Dialect } from './dialect.js'
import type { Part, PartName } from './reads.js'
import type { NotAllowed } from './route-book.js'
import { eachOnce, type OtherAnswer, type RouteDocs, type RouteSurface, SURFACE } from './route-docs.js'

// The routes of every surface: a module's routes are a RouteTable, `(deps) => RouteSpec[]`, and
// app.ts mounts the tables of each surface (mount.ts). A control-plane route declares zod schemas
// (schemaRoute, schema.ts). A vendor route is one declaration, `vendorRoute({…})`: what it reads,
// the checks its handler makes, what it answers; its OpenAPI operation (parameters, request body,
// answer, failures in the order a request meets them) is derived from that, never written beside.
//
// Adding a vendor route is one entry in its module's table (as in push/device/devices.ts):
//
//   vendorRoute({
//     method: 'POST',
//     url: '/devices/:registration_id',             // under its surface's prefix
//     summary: "Change a device's tags, alias or mobile (jpush-api.md §7)",
//     reads: {                                        // read in the order written, before the handler
//       params: params({ registration_id: rid }),
//       body: jsonBody(deviceObject, { tags: tagChanges, alias: aliasChange, mobile: mobileChange }),
//     },
//     checks: [badRid, tagLimit(), deviceErrors.aliasFull()],   // what the handler refuses, in order
//     answer: done,                                   // the 200 body's zod schema (beside its view)
//     handler: async (req, { params, body }) => { … },
//   })
//
// - A field is declared once, beside its reader: `field({ read, schema, errors })` (reads.ts; the
//   surface's own in sms/fields.ts, push/device/fields.ts…), `read` as lenient as the clients need.
// - A body whose checks depend on each other (a push payload, a template, a multipart form) is one
//   hand-written `part({ in: 'body', read, schema, errors })`, its failures listed in its order.
// - A check that must come before a part is read makes that part a late read: listed in `checks`
//   where it happens, read by the handler itself with `part.read(req, …)` (the template rules after
//   the template is found, a task's changes inside the write that makes them).
// - Another vendor host (the JPush Admin API) is a dialect (dialect.ts) and its tables, mounted in
//   app.ts; its routes are declared the same way.

/**
 * One route of a surface, typed by what it takes, so a reader sees it without opening the
 * handler: `route<{ Params: { registration_id: string } }>({ … })`. Vendor routes are made by
 * vendorRoute (no Fastify schema: their readers decide, in the vendor's order of codes); the
 * control plane's declare zod schemas (schema.ts).
 */
export interface RouteSpec<Takes extends RouteGenericInterface = RouteGenericInterface> {
  method: HTTPMethods | HTTPMethods[]
  url: string
  config?: FastifyContextConfig
  bodyLimit?: number
  schema?: FastifySchema
  /**
   * What GET /_sandbox/openapi.json says of the route: a control-plane route's summary and
   * failures (its schemas say the rest), or a vendor route's whole operation, derived from its
   * declaration when the document is first made. Fastify never reads it: it changes no answer.
   */
  docs?: RouteDocs | (() => RouteDocs)
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

/** The parts a vendor route reads before its handler runs, in the order written (the vendor's). */
export interface Reads {
  params?: Part<unknown, 'params'>
  query?: Part<unknown, 'query'>
  body?: Part<unknown, 'body'>
}

type Input<R extends Reads> = {
  [K in keyof R]: R[K] extends Part<infer T, PartName> ? Awaited<T> : never
}

/** One step of a handler after its reads: a refusal it may answer, or a part it reads itself. */
// biome-ignore lint/suspicious/noExplicitAny: a late read takes whatever its handler passes it
export type Check = ApiError | Part<unknown, PartName, any[]>

type SuccessAnswer = z.ZodType | OtherAnswer
type AnswerOf<A> = A extends z.ZodType ? z.input<A> : unknown

export interface VendorRouteSpec<R extends Reads, A extends SuccessAnswer | undefined> {
  method: HTTPMethods
  url: string
  /** One line, in the vendor's vocabulary, with the spec section it comes from. */
  summary: string
  /** Markdown: what a caller needs beyond the fields' own descriptions. */
  description?: string
  reads?: R
  /**
   * What the handler checks after its reads, in the order it checks: the refusals it throws, and
   * the parts it reads itself (after a check that must come first: a late read).
   */
  checks?: readonly Check[]
  /** The 200 answer: the zod schema its view is typed by, or a body that is not JSON. */
  answer?: A
  config?: FastifyContextConfig
  unknownMethods?: HTTPMethods[]
  handler(req: FastifyRequest, input: Input<R>, reply: FastifyReply): Promise<AnswerOf<A> | FastifyReply>
}

const isPart = (step: Check): step is Exclude<Check, ApiError> => !(step instanceof ApiError)

/**
 * A vendor route from its declaration: the handler gets what `reads` read (in the order written:
 * a refusal there answers before the handler runs), and the document gets the operation derived
 * from the same declaration. Body parts bring their media type, body limit and exact integers.
 */
export function vendorRoute<R extends Reads, A extends SuccessAnswer | undefined = undefined>(
  spec: VendorRouteSpec<R, A>,
): RouteSpec {
  const reads = Object.entries(spec.reads ?? {}) as Array<[string, Part<unknown, PartName>]>
  const steps: Check[] = [...reads.map(([, p]) => p), ...(spec.checks ?? [])]
  const bodies = steps.filter(isPart).filter(p => p.in === 'body')
  const exactIntegers = bodies.flatMap(p => p.exactIntegers ?? [])
  const media = bodies.find(p => p.media)?.media
  const limit = bodies.find(p => p.limit)?.limit
  const config: FastifyContextConfig = {
    ...spec.config,
    ...(exactIntegers.length > 0 ? { exactIntegers } : {}),
    ...(media?.startsWith('multipart/') ? { body: 'multipart' as const } : {}),
  }
  return {
    method: spec.method,
    url: spec.url,
    ...(Object.keys(config).length > 0 ? { config } : {}),
    ...(limit === undefined ? {} : { bodyLimit: limit }),
    ...(spec.unknownMethods ? { unknownMethods: spec.unknownMethods } : {}),
    docs: () => operationOf(spec, steps),
    handler: async (req, reply) => {
      const input: Record<string, unknown> = {}
      for (const [name, p] of reads) {
        const value = p.read(req)
        input[name] = value instanceof Promise ? await value : value
      }
      return spec.handler(req, input as Input<R>, reply)
    },
  }
}

/** The document's operation of a vendor route: its parts' schemas, its steps' failures. */
function operationOf(spec: VendorRouteSpec<Reads, SuccessAnswer | undefined>, steps: Check[]): RouteDocs {
  const parts = steps.filter(isPart)
  const schemaOf = (where: PartName) => merged(parts.filter(p => p.in === where).map(p => p.schema))
  const media = parts.find(p => p.media)?.media
  return {
    summary: spec.summary,
    description: spec.description,
    params: schemaOf('params'),
    querystring: schemaOf('query'),
    body: schemaOf('body'),
    bodyMedia: media,
    answers: spec.answer ? { 200: spec.answer } : undefined,
    // Each once, where a request first meets it: a code answered at several steps (a malformed
    // temp_id and an unknown one are both 50013) is listed at the first.
    errors: eachOnce(steps.flatMap(s => (isPart(s) ? s.errors : [s]))),
  }
}

/** One schema of a part read in several steps (a body read early, then late): their fields. */
function merged(schemas: z.ZodType[]): z.ZodType | undefined {
  if (schemas.length <= 1) return schemas[0]
  const shapes = schemas.map(s => {
    if (!('shape' in s)) throw new Error('a part read in several steps must be objects of fields')
    return (s as z.ZodObject).shape
  })
  const [first] = schemas as [z.ZodObject]
  return first.extend(Object.assign({}, ...shapes.slice(1)))
}

/**
 * A module's routes, made from what it uses of the app's dependencies (the small interface it
 * names, e.g. `{ store: Store; hub: Hub }`): one entry of a surface's list in app.ts.
 */
export type RouteTable<D> = (deps: D) => RouteSpec[]

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

/** The methods a path answers, in METHODS' order (HEAD goes with GET and is not named). */
const allowedOf = (methods: Set<string> | undefined): string[] => METHODS.filter(m => methods?.has(m))

/** A HEAD's answer: its GET's, the body's length kept in Content-Length, the body left out. */
const headWithoutBody = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  if (req.method !== 'HEAD' || typeof payload !== 'string') return payload
  reply.header('content-length', String(Buffer.byteLength(payload)))
  return null
}

/**
 * Registers a route table, then answers every other method on the same paths with the dialect's
 * "method not allowed" (Fastify alone would say 404), through the surface's `notAllowed` (route-
 * book.ts): those answers need no credentials. Each route carries its surface for the OpenAPI
 * document (the failures the surface's routes share).
 */
export function defineRoutes(
  app: FastifyInstance,
  routes: RouteSpec[],
  dialect: Dialect,
  {
    standing = true,
    operator,
    notAllowed,
  }: { standing?: boolean; operator?: OperatorRefusals | undefined; notAllowed: NotAllowed },
): void {
  const surface: RouteSurface = { dialect, standing, ...(operator ? { operator } : {}) }
  // Per path, the methods it answers, and those no 405 is derived for (answered or unknown).
  const byUrl = new Map<string, Set<string>>()
  const answered = new Map<string, Set<string>>()
  // A path whose routes answer failures flat answers its 405 (and what comes before it) flat too.
  const flatUrls = new Set<string>()
  for (const { unknownMethods = [], ...r } of routes) {
    const documented = { ...r, [SURFACE]: surface }
    app.route(documented)
    const methods = byUrl.get(r.url) ?? new Set()
    for (const m of [r.method, ...unknownMethods].flat()) methods.add(m)
    byUrl.set(r.url, methods)
    answered.set(r.url, new Set([...(answered.get(r.url) ?? []), r.method].flat()))
    if (r.config?.errorShape === 'flat') flatUrls.add(r.url)
  }
  for (const [url, methods] of byUrl) {
    const others = METHODS.filter(m => !methods.has(m) && !(m === 'HEAD' && methods.has('GET')))
    if (others.length === 0) continue
    // HEAD goes with a refused GET as it goes with an answered one.
    const refused: HTTPMethods[] = others.includes('GET') ? [...others, 'HEAD'] : others
    const config = { public: true, ...(flatUrls.has(url) ? { errorShape: 'flat' as const } : {}) }
    const refuse = (method: string) => dialect.methodNotAllowed(allowedOf(answered.get(url)), method)
    // A refused method that a parametric route of the table answers on paths this one also takes
    // stays a route here: the router tries this path first, and would hand the request to the
    // parametric route if no route of that method were here.
    const mayHide = notAllowed.hidden(`${app.prefix}${url}`)
    const hiding = refused.filter(m => mayHide.has(m))
    notAllowed.add({
      url: `${app.prefix}${url}`,
      methods: refused.filter(m => !hiding.includes(m)),
      config,
      refuse,
    })
    if (hiding.length === 0) continue
    const withHead = hiding.includes('HEAD')
    const derived = {
      // Fastify's own HEAD route would be a second route; the answer is what that route answers:
      // the GET's header fields, no body (Fastify's head-route.js, for a string payload: what an
      // error envelope is).
      method: hiding,
      exposeHeadRoute: false,
      ...(withHead ? { onSend: headWithoutBody } : {}),
      url,
      config,
      [SURFACE]: { ...surface, methodNotAllowed: true },
      // The method is refused before the body is read (issue 29, point 10): a PUT with a body
      // that is not JSON, or over the limit, is still the wrong method, as the vendor answers it.
      onRequest: async (req: FastifyRequest) => {
        throw refuse(req.method)
      },
      handler: async (req: FastifyRequest) => {
        throw refuse(req.method)
      },
    }
    app.route(derived)
  }
}
