import { z } from 'zod'
import { invalidField } from '../../control/errors.js'
import { intField, readControlMobile } from '../../control/schemas.js'
import { ApiError } from '../../errors.js'
import { optionalString } from '../../http/body/fields.js'
import type { RouteBook } from '../../http/route-book.js'
import { readBy } from '../../http/schema.js'
import { isObject, isWellFormedRid } from '../../push/values.js'
import { documentedError, foreignSurface, surfaceOf } from './codes.js'
import type { NewFault } from './faults.js'
import type { FaultMatch } from './match.js'

// What POST /_sandbox/faults takes. A fault that could never fire is refused, naming why: an
// unknown key, a path no route serves, a method the path does not answer, a code of another
// surface, a match on a recipient the path's requests cannot name.

export const FAULT_LIMITS = {
  perApp: 100,
  messageLength: 1024,
  pathLength: 256,
  delayMs: 60_000,
  times: 1_000_000,
}
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

function readPath(value: unknown): string {
  const path = optionalString(value, () => invalidField('path', 'must be a string')) ?? '*'
  if (path !== '*' && !/^\/(v1|v3|admin\/v1)(\/|$)/.test(path))
    throw invalidField('path', 'must be "*" or a path under /v1, /v3 or /admin/v1 (the Admin API)')
  if (path.length > FAULT_LIMITS.pathLength)
    throw invalidField('path', `must be at most ${FAULT_LIMITS.pathLength} characters`)
  return path
}

function readMethod(value: unknown): string | null {
  const method =
    optionalString(value, () => invalidField('method', 'must be a string'))?.toUpperCase() ?? null
  if (method !== null && !METHODS.includes(method))
    throw invalidField('method', `must be one of ${METHODS.join(', ')}`)
  return method
}

function readMessage(value: unknown): string | undefined {
  const message = optionalString(value, () => invalidField('message', 'must be a string'))
  if (message !== undefined && message.length > FAULT_LIMITS.messageLength)
    throw invalidField('message', `must be at most ${FAULT_LIMITS.messageLength} characters`)
  return message
}

function readMatch(value: unknown): FaultMatch | null {
  if (value === undefined || value === null) return null
  if (!isObject(value)) throw invalidField('match', 'must be an object: {"mobile"} or {"registration_id"}')
  const keys = Object.keys(value)
  if (keys.length !== 1) throw invalidField('match', 'give exactly one of "mobile", "registration_id"')
  if ('mobile' in value) return { mobile: readControlMobile('match.mobile', value.mobile) }
  if (!('registration_id' in value)) throw invalidField(`match.${keys[0]}`, 'unknown key')
  const rid = value.registration_id
  if (typeof rid !== 'string' || !isWellFormedRid(rid))
    throw invalidField('match.registration_id', 'must be 1 to 64 letters or digits')
  return { registration_id: rid }
}

export const faultSchema = z
  .object({
    path: readBy(readPath, {
      type: 'string',
      description: 'A path under /v1, /v3 or /admin/v1 (`/v1/codes/:msg_id/valid`), or `*` (the default).',
    }),
    method: readBy(readMethod, {
      type: 'string',
      description: 'GET, POST… (any case); any method the path answers, when left out.',
    }),
    code: intField('"code": must be an integer'),
    status: intField('"status": must be an integer'),
    message: readBy(readMessage, { type: 'string', maxLength: FAULT_LIMITS.messageLength }),
    delay_ms: intField('"delay_ms": must be an integer'),
    times: intField('"times": must be an integer'),
    match: readBy(readMatch, {
      description: 'Only requests naming this recipient.',
      oneOf: [
        {
          type: 'object',
          properties: { mobile: { type: 'string' } },
          required: ['mobile'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: { registration_id: { type: 'string' } },
          required: ['registration_id'],
          additionalProperties: false,
        },
      ],
    }),
  })
  .strict()

/** The rules between the fields, and the routes: what `POST /_sandbox/faults` arms. */
export function toFault(body: z.output<typeof faultSchema>, routes: RouteBook): NewFault {
  const { method, path, code, status, message, match } = body
  const delayMs = body.delay_ms ?? 0
  const times = body.times ?? 1
  if (delayMs < 0 || delayMs > FAULT_LIMITS.delayMs)
    throw invalidField('delay_ms', `must be 0..${FAULT_LIMITS.delayMs}`)
  if (times < 1 || times > FAULT_LIMITS.times) throw invalidField('times', `must be 1..${FAULT_LIMITS.times}`)
  if (status !== undefined && (status < 400 || status > 599)) throw invalidField('status', 'must be 400..599')
  if (code === undefined && delayMs === 0)
    throw invalidField('code', 'give "code" (an error to answer) or "delay_ms"')
  if (path !== '*') checkRoute(path, method, routes)
  if (match && path !== '*') checkMatch(match, path)
  const surface = surfaceOf(path)
  let error: ApiError | null = null
  if (code !== undefined) {
    const foreign = foreignSurface(code, surface)
    if (foreign) throw invalidField('code', `${code} is a code of ${foreign.name}, not of ${surface!.name}`)
    const documented = documentedError(code, surface)
    if (!documented && status === undefined)
      throw invalidField('status', `code ${code} is not documented: give its "status"`)
    error = new ApiError(
      status ?? documented!.status,
      code,
      message ?? documented?.message ?? 'injected fault',
    )
  }
  return { method, path, match, error, delayMs, remaining: times }
}

function checkRoute(path: string, method: string | null, routes: RouteBook): void {
  const methods = routes.methodsOf(path)
  if (methods.length === 0) throw invalidField('path', `no route serves ${path}`)
  if (method !== null && !methods.includes(method))
    throw invalidField('method', `${path} does not answer ${method} (it answers ${methods.join(', ')})`)
}

function checkMatch(match: FaultMatch, path: string): void {
  if (path.startsWith('/admin/')) throw invalidField('match', 'Admin API requests name no recipient')
  if ('mobile' in match && !path.startsWith('/v1'))
    throw invalidField('match.mobile', 'only /v1 requests name mobiles: match /v3 ones by "registration_id"')
  if ('registration_id' in match && !path.startsWith('/v3'))
    throw invalidField(
      'match.registration_id',
      'only /v3 requests name registration_ids: match /v1 ones by "mobile"',
    )
}
