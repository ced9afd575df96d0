import type { SwaggerTransform } from '@fastify/swagger'
import type { FastifySchema, RouteOptions } from 'fastify'
import { createJsonSchemaTransform } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { type OtherAnswer, type RouteDocs, type RouteSurface, SURFACE } from '../http/route-docs.js'
import type { PushGroup } from '../push/dialect.js'
import { groupOf } from '../push/dialect.js'
import { failureResponses, rateHeaders } from './failures.js'

// One route of the app as an operation of the OpenAPI document: @fastify/swagger collects every
// route Fastify registers and asks this transform what to say of each. Every route says it in one
// shape, its RouteDocs: a vendor route's are derived from its declaration (vendorRoute, http/
// routes.ts: what it reads, checks and answers), a control-plane route's from its zod schemas and
// its summary (schemaRoute, http/schema.ts). The failures its surface shares come from the
// surface's dialect; a /v3 answer carries the rate window's headers.

// Nothing is skipped by URL: routes this transform should not show say so themselves.
const zodToJson = createJsonSchemaTransform({ skipList: [] })

type Documented = RouteOptions & { docs?: RouteDocs | (() => RouteDocs); [SURFACE]?: RouteSurface }
type Answer = NonNullable<RouteDocs['answers']>[number]
type ZodSchemas = {
  params?: z.ZodType
  querystring?: z.ZodType
  body?: z.ZodType
  response?: Record<number, z.ZodType>
}

const isOther = (answer: Answer): answer is OtherAnswer => !(answer instanceof z.ZodType)

/**
 * What the document says of a route, in one shape whoever declared it: a route's zod schemas (the
 * control plane's) stand for what it takes and answers; a JSON answer may also come in another
 * media type on the same status (GET /_sandbox/events: a list, or Server-Sent Events), named in
 * its docs.
 */
function describedOf(
  route: Documented,
  schema: ZodSchemas,
): RouteDocs & { alsoAnswers: Record<number, Answer> } {
  const docs = (typeof route.docs === 'function' ? route.docs() : route.docs) ?? { summary: '' }
  return {
    ...docs,
    params: schema.params ?? docs.params,
    querystring: schema.querystring ?? docs.querystring,
    body: schema.body ?? docs.body,
    answers: schema.response ?? docs.answers,
    alsoAnswers: schema.response ? (docs.answers ?? {}) : {},
  }
}

export const describeRoute: SwaggerTransform = ({ schema, url, route, ...document }) => {
  const { [SURFACE]: surface, config } = route as Documented
  if (surface?.methodNotAllowed) return { schema: { hide: true }, url }
  const docs = describedOf(route as Documented, (schema ?? {}) as ZodSchemas)
  const answers: Record<number, Answer> = docs.answers ?? {}
  const zodAnswers = Object.fromEntries(Object.entries(answers).filter(([, a]) => !isOther(a)))
  // zod → JSON Schema: request parts as what a caller may send, answers as what leaves.
  const converted = zodToJson({
    schema: { params: docs.params, querystring: docs.querystring, body: docs.body, response: zodAnswers },
    url,
    route,
    ...document,
  }).schema as FastifySchema & { response: Record<string, Record<string, unknown>> }

  const isPublic = config?.public === true || surface === undefined
  const headers = surface?.dialect.rateLimited ? rateHeaders : undefined
  const responses: Record<string, unknown> = {}
  for (const [status, answer] of Object.entries(answers)) {
    if (isOther(answer)) {
      responses[status] = {
        description: answer.description,
        ...(answer.media === null
          ? { type: 'null' }
          : { content: { [answer.media]: { schema: { type: 'string' } } } }),
        headers,
      }
      continue
    }
    const json = converted.response[status] ?? {}
    const description = typeof json.description === 'string' ? json.description : 'OK'
    responses[status] = { description, content: { 'application/json': { schema: json } }, headers }
  }
  for (const [status, other] of Object.entries(docs.alsoAnswers)) {
    const response = responses[status] as
      | { description: string; content?: Record<string, unknown> }
      | undefined
    if (!isOther(other) || other.media === null || !response?.content) continue
    response.content[other.media] = { schema: { type: 'string' } }
    response.description = `${response.description}; or ${other.description}`
  }
  const takesBody = docs.body !== undefined
  // A group's member apps are refused for their standing one by one, in the answer (group-auth.ts).
  const standing = surface?.standing === true && config?.auth !== 'group'
  Object.assign(
    responses,
    surface &&
      failureResponses(surface, { docs, isPublic, standing, takesBody, extra: config?.errorExtra, headers }),
  )

  const methods = [route.method].flat().join('')
  return {
    url,
    schema: {
      operationId: operationId(methods, url),
      tags: [tagOf(url, isPublic)],
      ...(docs.summary ? { summary: docs.summary } : {}),
      ...(docs.description ? { description: docs.description } : {}),
      ...(isPublic
        ? { security: [] }
        : config?.auth === 'app-or-dev'
          ? { security: [{ app: [] }, { developer: [] }] }
          : config?.auth && config.auth !== 'app-or-operator'
            ? { security: [{ [SCHEMES[config.auth]]: [] }] }
            : tagOf(url, false).startsWith('Sandbox')
              ? { security: APP_OR_OPERATOR }
              : {}),
      params: converted.params,
      querystring: converted.querystring,
      body: converted.body,
      ...(docs.bodyMedia && converted.body ? { consumes: [docs.bodyMedia] } : {}),
      response: responses,
      // The route's own failures in the order it checks them: by status, the responses lose it.
      ...(docs.errors?.length
        ? {
            'x-failure-order': docs.errors.map(e => ({ status: e.status, code: e.code, message: e.message })),
          }
        : {}),
    },
  }
}

/** `POST /v1/codes/:msg_id/valid` → `postV1CodesMsgIdValid`: stable names for generated clients. */
function operationId(method: string, url: string): string {
  const words = `${method} ${url}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  return words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('')
}

/** A control-plane route: the app's own credentials, or the operator's with X-Sandbox-App. */
const APP_OR_OPERATOR: Array<Record<string, string[]>> = [{ app: [] }, { operator: [] }]

/** The security scheme (document.ts) of each kind of credentials a route takes. */
const SCHEMES = { app: 'app', dev: 'developer', group: 'group', operator: 'operator' } as const

const PUSH_TAGS = {
  push: 'JPush v3: push host',
  device: 'JPush v3: device host',
  report: 'JPush v3: report host',
  schedule: 'JPush v3: schedule API',
} as const satisfies Record<PushGroup, string>

/** Operations grouped as the vendors group them (the JPush hosts apart), then the control plane's. */
function tagOf(url: string, isPublic: boolean): string {
  const [, prefix = '', first = ''] = url.split('/')
  if (prefix === 'v1') return 'JSMS v1'
  if (prefix === 'v3') return PUSH_TAGS[groupOf(url)]
  if (prefix !== '_sandbox') return 'Index'
  return isPublic ? 'Sandbox: operations (no credentials)' : `Sandbox: ${first}`
}
