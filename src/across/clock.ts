import { z } from 'zod'
import type { Clock } from '../clock.js'
import { invalidControlBody } from '../control/dialect.js'
import { sandboxErrors } from '../control/errors.js'
import { optionalInt } from '../http/body/fields.js'
import type { RouteSpec } from '../http/routes.js'
import { readBy, schemaRoute } from '../http/schema.js'
import type { Scheduler } from '../scheduler/index.js'
import type { Store } from '../store/index.js'

// Refusals of the clock endpoint: 400 for a move it cannot read, 409 for one backwards.
const invalidMove = () =>
  invalidControlBody('give "advance_ms" (milliseconds >= 0) or "set" (an ISO-8601 time)')
// Every time is rendered as a date somewhere (send_time, ISO times, daily counters); past this an
// app's requests would fail from then on, and its clock never moves back (but a reset does).
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')
const tooLate = () => invalidControlBody('the clock stops at 9999-12-31T23:59:59.999Z')

/** `set`: an ISO-8601 time (at least `yyyy-mm-ddT`), as epoch milliseconds. */
function readSet(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN
  if (Number.isNaN(ms)) throw invalidMove()
  return ms
}

export const schemas = {
  /** Exactly one of the two. */
  move: z.object({
    advance_ms: readBy(v => optionalInt(v, invalidMove), {
      type: 'integer',
      minimum: 0,
      description: 'Move the clock forward by this many milliseconds.',
    }),
    set: readBy(readSet, {
      type: 'string',
      format: 'date-time',
      description: 'Move the clock to this time.',
    }),
  }),
  clock: z.object({ now: z.number(), offset_ms: z.number() }),
}

/**
 * The calling app's clock: read it, or move it forward. A move answers only after everything that
 * fell due up to the new time has run, in order (scheduled messages, delivery reports, reviews,
 * callback retries), then records a clock.moved event. Each app has its own clock, so parallel
 * suites do not disturb each other.
 */
export function clockRoutes(deps: { store: Store; clock: Clock; scheduler: Scheduler }): RouteSpec[] {
  const { store, scheduler } = deps
  const show = (appKey: string) => {
    const app = store.apps.get(appKey)!
    return { now: deps.clock.now() + app.clockOffsetMs, offset_ms: app.clockOffsetMs }
  }
  return [
    schemaRoute({
      method: 'GET',
      url: '/clock',
      docs: {
        summary: "The app's clock: its now and its offset from the process clock",
        description: `Each app has its own clock (the process clock plus its offset), so parallel suites do not
disturb each other. \`now\` is epoch milliseconds.`,
      },
      schema: { response: { 200: schemas.clock } },
      handler: async req => show(req.tenant.app.appKey),
    }),
    schemaRoute({
      method: 'POST',
      url: '/clock',
      docs: {
        summary: "Move the app's clock forward, running what falls due on the way",
        description: `\`{"advance_ms":…}\` or \`{"set":"<ISO-8601>"}\` (one of them). Everything that falls due up to the new
time runs in order, each at its own time (scheduled messages, delivery reports, reviews, callbacks
and their retries, push fallbacks), and the answer comes only then. Event: \`clock.moved\`.`,
        errors: [invalidMove(), sandboxErrors.clockBackwards(), tooLate()],
      },
      schema: { body: schemas.move, response: { 200: schemas.clock } },
      handler: async req => {
        const { advance_ms: advance, set } = req.body
        const { appKey } = req.tenant.app
        const now = show(appKey).now
        if ((advance === undefined) === (set === undefined)) throw invalidMove()
        const target = advance !== undefined ? now + advance : set!
        if ((advance ?? 0) < 0) throw sandboxErrors.clockBackwards()
        if (target < now) throw sandboxErrors.clockBackwards()
        if (target > LATEST) throw tooLate()
        await scheduler.advance(appKey, target)
        // After what fell due on the way: the stream says what happened, then that time moved.
        const moved = show(appKey)
        await store.write({ announces: ['clock.moved'] }, () =>
          store.events.append({ appKey, type: 'clock.moved', data: moved, at: moved.now }),
        )
        return moved
      },
    }),
  ]
}
