import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import { ApiError } from '../errors.js'
import { optionalString } from '../http/fields.js'
import type { RouteSpec } from '../http/routes.js'
import { readBy, schemaRoute } from '../http/schema.js'
import { deviceErrors, pushErrors, reportErrors } from '../push/errors.js'
import { smsErrors } from '../sms/errors.js'
import { invalidControlBody as invalid } from './dialect.js'
import type { Fault, NewFault } from './faults.js'
import { intField } from './schemas.js'

const MAX_DELAY_MS = 60_000
const MAX_TIMES = 1_000_000
// Faults live in memory, per app: bounded so that no tenant can grow the process (or a listing).
const FAULT_LIMITS = { perApp: 100, messageLength: 1024, pathLength: 256 } as const
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/** Every documented error that needs no argument, by code: what a fault answers by default. */
const known = new Map<number, ApiError>()
for (const table of [smsErrors, pushErrors, reportErrors, deviceErrors] as Array<Record<string, unknown>>) {
  for (const make of Object.values(table)) {
    if (typeof make === 'function' && make.length === 0) {
      const error = make() as ApiError
      if (!known.has(error.code)) known.set(error.code, error)
    }
  }
}

function readPath(value: unknown): string {
  const path = optionalString(value, () => invalid('"path" must be a string')) ?? '*'
  if (path !== '*' && !/^\/(v1|v3)(\/|$)/.test(path))
    throw invalid('"path" must be "*" or a path under /v1 or /v3')
  if (path.length > FAULT_LIMITS.pathLength)
    throw invalid(`"path" must be at most ${FAULT_LIMITS.pathLength} characters`)
  return path
}

function readMethod(value: unknown): string | null {
  const method = optionalString(value, () => invalid('"method" must be a string'))?.toUpperCase() ?? null
  if (method !== null && !METHODS.includes(method))
    throw invalid(`"method" must be one of ${METHODS.join(', ')}`)
  return method
}

function readMessage(value: unknown): string | undefined {
  const message = optionalString(value, () => invalid('"message" must be a string'))
  if (message !== undefined && message.length > FAULT_LIMITS.messageLength)
    throw invalid(`"message" must be at most ${FAULT_LIMITS.messageLength} characters`)
  return message
}

const schemas = {
  /** Each field's type first, in this order; then the rules between them (toFault). */
  fault: z.object({
    path: readBy(readPath),
    method: readBy(readMethod),
    code: intField('"code" must be an integer'),
    status: intField('"status" must be an integer'),
    message: readBy(readMessage),
    delay_ms: intField('"delay_ms" must be an integer'),
    times: intField('"times" must be an integer'),
  }),
  armed: z.object({
    id: z.number(),
    method: z.string().nullable(),
    path: z.string(),
    code: z.number().nullable(),
    status: z.number().nullable(),
    message: z.string().nullable(),
    delay_ms: z.number(),
    remaining: z.number(),
  }),
}

function toFault(body: z.output<typeof schemas.fault>): NewFault {
  const { method, path, code, status, message } = body
  const delayMs = body.delay_ms ?? 0
  const times = body.times ?? 1
  if (delayMs < 0 || delayMs > MAX_DELAY_MS) throw invalid(`"delay_ms" must be 0..${MAX_DELAY_MS}`)
  if (times < 1 || times > MAX_TIMES) throw invalid(`"times" must be 1..${MAX_TIMES}`)
  if (status !== undefined && (status < 400 || status > 599)) throw invalid('"status" must be 400..599')
  if (code === undefined && delayMs === 0) throw invalid('give "code" (an error to answer) or "delay_ms"')
  let error: ApiError | null = null
  if (code !== undefined) {
    const documented = known.get(code)
    if (!documented && status === undefined)
      throw invalid(`code ${code} is not documented: give its "status"`)
    error = new ApiError(
      status ?? documented!.status,
      code,
      message ?? documented?.message ?? 'injected fault',
    )
  }
  return { method, path, error, delayMs, remaining: times }
}

const show = (f: Fault): z.input<typeof schemas.armed> => ({
  id: f.id,
  method: f.method,
  path: f.path,
  code: f.error?.code ?? null,
  status: f.error?.status ?? null,
  message: f.error?.message ?? null,
  delay_ms: f.delayMs,
  remaining: f.remaining,
})

/** Fault injection for the calling app: arm, list, disarm. */
export function faultRoutes({ faults }: Pick<AppDeps, 'faults'>): RouteSpec[] {
  return [
    schemaRoute({
      method: 'POST',
      url: '/faults',
      schema: { body: schemas.fault, response: { 200: schemas.armed } },
      handler: async req => {
        const fault = toFault(req.body)
        const { appKey } = req.tenant.app
        if (faults.list(appKey).length >= FAULT_LIMITS.perApp)
          throw invalid(
            `at most ${FAULT_LIMITS.perApp} faults may be armed at once: DELETE /_sandbox/faults first`,
          )
        return show(faults.arm(appKey, fault))
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/faults',
      schema: { response: { 200: z.object({ faults: z.array(schemas.armed) }) } },
      handler: async req => ({ faults: faults.list(req.tenant.app.appKey).map(show) }),
    }),
    schemaRoute({
      method: 'DELETE',
      url: '/faults',
      schema: { response: { 200: z.object({ cleared: z.number() }) } },
      handler: async req => ({ cleared: faults.clear(req.tenant.app.appKey) }),
    }),
  ]
}
