import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { Clock } from '../../clock.js'
import { sandboxErrors } from '../../control/errors.js'
import { listQuery, whole } from '../../control/list-query.js'
import { readOrWait, waitErrors } from '../../control/list-route.js'
import type { Hub } from '../../events/hub.js'
import type { Stream } from '../../events/stream.js'
import { streamEvents } from '../../events/subscriber.js'
import type { EventTokens } from '../../events/token.js'
import type { RouteSpec } from '../../http/routes.js'
import { schemaRoute } from '../../http/schema.js'
import { EVENT_TYPES, type EventType } from '../../store/events/log.js'
import type { Store } from '../../store/index.js'
import { tenantOf } from '../../tenancy.js'
import { iso } from '../../time.js'
import { eventListDoc } from './schemas.js'

export const schemas = {
  query: listQuery(['kind'], { kind: EVENT_TYPES }, { token: true }),
  events: z.object({
    // What each type's data is (event-schemas.ts), for the document only: the element stays the
    // plain item (the MCP tools' shape of an event, mcp/shapes.ts).
    events: z.array(z.object({ seq: z.number(), type: z.string(), data: z.unknown() })).meta(eventListDoc),
    next_after: z.number(),
  }),
  token: z.object({ token: z.string(), expires_at: z.string() }),
}

const STREAM_DOC = `The app's events, newest first, as every list (\`after\`, \`wait\`, \`kind\`…): ${EVENT_TYPES.join(', ')}.
Each has a \`seq\` and \`data\` shaped like the matching inspection item (README "Waiting and events"):
the answer's \`events\` items say, by \`type\`, what its \`data\` is (\`oneOf\`).

With \`Accept: text/event-stream\`: Server-Sent Events instead, from after \`Last-Event-ID\` (or \`after=\`,
else from now), each with \`id: <seq>\`, \`event: <type>\` and the item as \`data\`; a \`: heartbeat\` comment every
15 s; each event's \`data\` is what the list's item of its type holds as \`data\`. A client that stops reading while the app moves 1000 events ahead gets \`event: dropped\` and the
end of the stream; every stream ends after EVENT_STREAM_MAX_LIFE_MS (30 minutes by default). Either
way the client resumes with Last-Event-ID (an EventSource does so by itself). A browser's EventSource, which cannot send
credentials, passes \`?token=\` from POST /_sandbox/events/token instead.`

/** An EventSource asks for `text/event-stream`; anyone else gets the events as a list. */
const wantsStream = (req: FastifyRequest) => String(req.headers.accept ?? '').includes('text/event-stream')

/** A reconnecting EventSource sends the id of the last event it got. */
function lastEventId(req: FastifyRequest): number | undefined {
  const header = req.headers['last-event-id']
  return whole('Last-Event-ID', 0, Number.MAX_SAFE_INTEGER, 'a seq (a whole number, 0 or more)')(header)
}

/**
 * GET /_sandbox/events: the calling app's events. With `Accept: text/event-stream`, a stream of
 * Server-Sent Events (events/subscriber.ts) from after `Last-Event-ID` (or `after=`, or from now);
 * otherwise a list like every other (`after`, `wait`…). Basic credentials, or `?token=` from POST
 * /_sandbox/events/token for a browser's EventSource (events/token.ts).
 */
export function eventRoutes(deps: {
  store: Store
  hub: Hub
  clock: Clock
  eventTokens: EventTokens
  /** The app's events, every feature's rows and the event log merged (events/stream.ts). */
  stream: Stream
}): RouteSpec[] {
  const { store, hub, clock, eventTokens, stream } = deps
  const byToken = (token: string) => {
    const app = eventTokens.verify(token, appKey => store.apps.get(appKey))
    if (!app) throw sandboxErrors.badEventToken()
    return tenantOf(clock, app)
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/events',
      config: { tokenAuth: byToken },
      docs: {
        summary: 'Events of the app: a list, or Server-Sent Events',
        description: STREAM_DOC,
        answers: {
          200: { description: 'Server-Sent Events (Accept: text/event-stream)', media: 'text/event-stream' },
        },
        errors: [
          sandboxErrors.badEventToken(),
          sandboxErrors.invalidField('"Last-Event-ID": must be a seq (a whole number, 0 or more)'),
          ...waitErrors,
          sandboxErrors.tooManyListeners(
            'too many event streams: at most 20 per app at a time (MAX_EVENT_STREAMS_PER_APP)',
          ),
          sandboxErrors.tooManyListeners(
            'too many event streams from <client>: at most 100 at a time per client (MAX_EVENT_STREAMS_PER_CLIENT)',
          ),
          sandboxErrors
            .tooManyListeners(
              'too many event streams in the sandbox: at most 1000 at a time (MAX_EVENT_STREAMS)',
            )
            .withStatus(503),
        ],
      },
      schema: { querystring: schemas.query, response: { 200: schemas.events } },
      handler: async (req, reply) => {
        const { appKey } = req.tenant.app
        const { token: _token, wait, limit, after, ...filter } = req.query
        const kind = filter.kind as EventType | undefined
        if (wantsStream(req)) {
          // "From now": after the journal's entries of the requests answered before this one
          // (committed before any control-plane handler runs: http/journal.ts).
          const from = lastEventId(req) ?? after ?? store.seqs.current(appKey)
          streamEvents({ store, hub, stream }, appKey, reply, from, { ...filter, kind })
          return reply
        }
        const read = () => {
          const events = stream.list(appKey, { ...filter, kind, after, limit })
          return events.length > 0 ? events : undefined
        }
        const events = (await readOrWait(deps, req, reply, 'any', wait, read)) ?? []
        return {
          events,
          next_after: events[0]?.seq ?? after ?? store.seqs.current(appKey),
        }
      },
    }),
    schemaRoute({
      method: 'POST',
      url: '/events/token',
      docs: {
        summary: 'A token that opens GET /_sandbox/events without credentials (for EventSource)',
        description: `Valid 10 minutes for the app's own events only (\`?token=\`); an open stream outlives
it. A restart, or the app's removal, voids it.`,
      },
      schema: { response: { 200: schemas.token } },
      handler: async req => {
        const { token, expiresAt } = eventTokens.issue(req.tenant.app)
        return { token, expires_at: iso(expiresAt) }
      },
    }),
  ]
}
