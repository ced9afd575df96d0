import type { ApiError } from '../errors.js'
import { eachOnce, type RouteDocs, type RouteSurface } from '../http/route-docs.js'

// The failures of one operation, grouped by HTTP status as OpenAPI wants them: each status lists
// its codes in its description and shows each one's body as an example. The route's own failures
// (its docs) come first; then those every route of its surface shares, named by the dialect.

/** The X-Rate-Limit-* headers every /v3 answer carries (jpush-api.md §3), written as they are sent. */
export const rateHeaders = {
  'X-Rate-Limit-Limit': { type: 'integer', description: 'Calls allowed in the current window (a minute).' },
  'X-Rate-Limit-Remaining': { type: 'integer', description: 'Calls left in the current window.' },
  'X-Rate-Limit-Reset': { type: 'integer', description: 'Seconds until the window resets.' },
}

interface FailureContext {
  docs: RouteDocs
  isPublic: boolean
  /** Whether the app's standing is refused as the request's failure (blacklist, IP, frozen…). */
  standing: boolean
  takesBody: boolean
  /** Top-level fields every failure of the route carries (`"is_valid": false`). */
  extra: Record<string, unknown> | undefined
  headers: typeof rateHeaders | undefined
}

/** Every failure an operation may answer: its own, then its surface's. */
function failuresOf(
  surface: RouteSurface,
  { docs, isPublic, standing, takesBody }: FailureContext,
): ApiError[] {
  const d = surface.dialect
  const shared: Array<ApiError | undefined> = []
  if (!isPublic) {
    shared.push(d.missingAuth(), d.authFailed(), d.malformedKey(), d.rateLimited?.())
    const op = surface.operator
    if (op)
      shared.push(
        op.operatorOnly(),
        op.appNotNamed(),
        op.unknownApp('<X-Sandbox-App>'),
        op.tooManySignIns(60),
      )
    if (standing)
      shared.push(d.blacklisted(), d.ipNotWhitelisted(), d.frozenDeveloper(), d.serviceNotEnabled?.())
  }
  if (takesBody) shared.push(d.missingBody?.(), d.invalidBody(), d.bodyTooLarge(), d.mediaNotSupported?.())
  shared.push(d.serverError())
  return eachOnce([...(docs.errors ?? []), ...shared.filter((e): e is ApiError => e !== undefined)])
}

/** `{ "403": { description, content: { examples } }, … }` for the swagger transform. */
export function failureResponses(surface: RouteSurface, context: FailureContext): Record<string, unknown> {
  const byStatus = new Map<number, ApiError[]>()
  for (const e of failuresOf(surface, context)) byStatus.set(e.status, [...(byStatus.get(e.status) ?? []), e])
  const responses: Record<string, unknown> = {}
  for (const [status, errors] of [...byStatus].sort(([a], [b]) => a - b)) {
    const examples: Record<string, { summary: string; value: unknown }> = {}
    // Named by code and message: unique, and (not being integers) kept in this order.
    for (const e of errors)
      examples[`${e.code} ${e.message}`] = {
        summary: e.message,
        value: e.withExtra(context.extra ?? {}).toBody(),
      }
    responses[status] = {
      description: errors.map(e => `\`${e.code}\` ${e.message}`).join('; '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/VendorError' }, examples } },
      headers: context.headers,
    }
  }
  return responses
}
