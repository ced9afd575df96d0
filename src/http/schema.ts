import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { serializerCompiler } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ApiError } from '../errors.js'
import type { Dialect } from './dialect.js'
import type { RouteDocs } from './route-docs.js'
import type { RouteSpec } from './routes.js'

// Schemas for the project's own API (/_sandbox): zod declares what a route takes and answers, so
// one source types the handler, validates the request, filters the answer and (next) documents
// it. Vendor routes declare none: their hand-written readers decide, in the vendor's order.

/**
 * A field read by a hand-written reader: it may be absent, and anything the reader refuses is
 * answered with the reader's own ApiError (a vendor code, or the control plane's 400 and reason).
 * `doc` is what the OpenAPI document shows of the field (JSON Schema: type, description…), since
 * the reader itself cannot be shown.
 */
export function readBy<T>(reader: (value: unknown) => T, doc: Record<string, unknown> = {}) {
  return z
    .unknown()
    .optional()
    .transform((value, ctx): T => {
      try {
        return reader(value)
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        ctx.addIssue({ code: 'custom', message: err.message, params: { answer: err } })
        return z.NEVER
      }
    })
    .meta(doc)
}

/** What a control-plane route's refusal is, in the surface's dialect. */
function refusal(error: z.ZodError, data: unknown, dialect: Dialect): ApiError {
  const issue = error.issues[0]
  const answer = issue?.code === 'custom' ? issue.params?.answer : undefined
  if (answer instanceof ApiError) return answer
  // Fastify hands a validator `null` for a request without a body.
  // A strict object's unknown keys are one issue at the object's own path: name the first key.
  if (issue?.code === 'unrecognized_keys')
    return dialect.invalidBody(`"${[...issue.path, issue.keys[0]].join('.')}": unknown key`)
  if (!issue || issue.path.length === 0)
    return data === null ? (dialect.missingBody?.() ?? dialect.invalidBody()) : dialect.invalidBody()
  return dialect.invalidBody(`"${issue.path.join('.')}": ${issue.message}`)
}

/**
 * Routes of the surface that declare zod schemas are validated and answered through them. A
 * refusal is an ApiError, which Fastify passes to the surface's error handler as it is.
 */
export function useSchemas(app: FastifyInstance, dialect: Dialect): void {
  app.setValidatorCompiler<z.ZodType>(({ schema }) => data => {
    const result = schema.safeParse(data)
    return result.success ? { value: result.data } : { error: refusal(result.error, data, dialect) }
  })
  // An answer is encoded by its schema: fields it does not declare never leave the server.
  app.setSerializerCompiler(serializerCompiler)
}

/** The schemas of a control-plane route. */
export interface RouteSchemas {
  params?: z.ZodType
  querystring?: z.ZodType
  body?: z.ZodType
  /** By status: the answers' allow-list. */
  response?: Record<number, z.ZodType>
}

type Parsed<S extends RouteSchemas, K extends 'params' | 'querystring' | 'body'> = S[K] extends z.ZodType
  ? z.output<S[K]>
  : unknown
type Takes<S extends RouteSchemas> = {
  Params: Parsed<S, 'params'>
  Querystring: Parsed<S, 'querystring'>
  Body: Parsed<S, 'body'>
}
type Answer<S extends RouteSchemas> = S['response'] extends { 200: z.ZodType }
  ? z.input<S['response'][200]>
  : unknown

/**
 * What the OpenAPI document says of a control-plane route: a summary, a description (what a
 * caller needs beyond the schemas), and its own failures (the surface's come by themselves).
 */
export type ControlDocs = RouteDocs & { description: string }

/**
 * A route whose handler is typed by its schemas: it gets what they parse and must return what
 * the 200 answer declares (or a reply it sent itself). Its `docs` are required: every operation
 * of the control plane is in the document with a summary, a description and its failures.
 */
export function schemaRoute<S extends RouteSchemas>(
  spec: Omit<RouteSpec, 'schema' | 'handler' | 'docs'> & {
    docs: ControlDocs
    schema: S
    handler(req: FastifyRequest<Takes<S>>, reply: FastifyReply<Takes<S>>): Promise<Answer<S> | FastifyReply>
  },
): RouteSpec<Takes<S>> {
  return spec
}
