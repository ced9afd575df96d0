import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { WaitTopic } from '../events/held.js'
import type { Hub } from '../events/hub.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import type { Store } from '../store/index.js'
import { sandboxErrors } from './errors.js'
import { type FilterName, LIST_LIMITS, type ListQuery, listQuery } from './list-query.js'

/** One list of the control plane: its path, filters, item, and how to read it. */
export interface ListSpec<F extends FilterName, I extends z.ZodType> {
  url: string
  /** One line for the OpenAPI document. */
  summary: string
  /** The key of the items in the answer (`messages`, `callbacks`…): one envelope for every list. */
  key: string
  filters: readonly F[]
  values?: { kind?: readonly string[]; state?: readonly string[] }
  item: I
  /** What a held request (`wait=`) waits for. */
  topic: WaitTopic
  /** The items, newest first. */
  read(appKey: string, q: ListQuery<F>): Array<z.input<I> & { seq: number }>
  /** Markdown the OpenAPI document adds to the lists' own description. */
  description?: string
  /** Fields the answer carries besides the list (the callbacks' `callback_url`). */
  extra?: { schema: z.ZodRawShape; read(req: FastifyRequest): Record<string, unknown> }
}

/**
 * `{ "<key>": [items, newest first], "next_after": <seq> }`. `next_after` is the largest seq the
 * answer covers (the newest item's, else `after`, else the app's latest seq): asking again with
 * `after=<next_after>` returns only what is newer, and with `wait=` waits for it.
 */
export function listRoute<F extends FilterName, I extends z.ZodType>(
  deps: { store: Store; hub: Hub },
  spec: ListSpec<F, I>,
): RouteSpec {
  const answer = z.object({
    [spec.key]: z.array(spec.item),
    next_after: z.number(),
    ...(spec.extra?.schema ?? {}),
  })
  return schemaRoute({
    method: 'GET',
    url: spec.url,
    docs: {
      summary: spec.summary,
      description: spec.description ? `${spec.description}\n\n${LIST_DESCRIPTION}` : LIST_DESCRIPTION,
      errors: [sandboxErrors.invalidField('"limit": must be a whole number from 1 to 1000'), ...waitErrors],
    },
    schema: { querystring: listQuery(spec.filters, spec.values), response: { 200: answer } },
    handler: async (req, reply) => {
      const q = req.query as ListQuery<F>
      const { appKey } = req.tenant.app
      const found = await readOrWait(deps, req, reply, spec.topic, q.wait, () => {
        const items = spec.read(appKey, q)
        return items.length > 0 ? items : undefined
      })
      const items = found ?? []
      const nextAfter = items[0]?.seq ?? q.after ?? deps.store.seqs.current(appKey)
      return { [spec.key]: items, next_after: nextAfter, ...(spec.extra?.read(req) ?? {}) }
    },
  })
}

/** What every list says of itself in the OpenAPI document (README "Waiting and events"). */
export const LIST_DESCRIPTION = `Newest first, each item with its \`seq\` (per app, across every kind).
\`after=<seq>\` answers only newer items (the \`limit\` right after it); \`next_after\` is where to go on
from. \`wait=<ms>\` (at most ${LIST_LIMITS.maxWaitMs}) holds a request that finds nothing until something
matching arrives, or the wait ends (then answered as without it). Unknown parameters are refused.`

/** A held request's own refusals: over the app's, the client's or the sandbox's bound. */
export const waitErrors = [
  sandboxErrors.tooManyListeners(
    'too many requests waiting: at most 100 per app at a time (MAX_WAITING_REQUESTS_PER_APP)',
  ),
  sandboxErrors.tooManyListeners(
    'too many requests waiting from <client>: at most 200 at a time per client (MAX_WAITING_REQUESTS_PER_CLIENT)',
  ),
  sandboxErrors
    .tooManyListeners(
      'too many requests waiting in the sandbox: at most 2000 at a time (MAX_WAITING_REQUESTS)',
    )
    .withStatus(503),
]

/**
 * `read()` now; when it finds nothing and the request says `wait=<ms>`, the request is held until a
 * durable commit of `topic` makes `read()` find something (events/hub.ts), or the wait ends, then
 * read as without waiting.
 */
export async function readOrWait<T>(
  deps: { hub: Hub; store: Store },
  req: FastifyRequest,
  reply: FastifyReply,
  topic: WaitTopic,
  wait: number | undefined,
  read: () => T | undefined,
): Promise<T | undefined> {
  const now = read()
  if (now !== undefined || !wait) return now
  const who = { appKey: req.tenant.app.appKey, client: req.ip }
  const woken = await deps.hub.waitFor(who, topic, wait, reply.raw, read)
  return woken ?? read()
}
