import type { AppDeps } from '../deps.js'
import { optionalInt } from '../http/fields.js'
import type { RouteSpec } from '../http/routes.js'
import { invalidControlBody, readControlBody } from './dialect.js'

// Refusals of the clock endpoint, in the vendor's envelope: 400 with the code of an invalid body.
const invalidMove = () =>
  invalidControlBody('give "advance_ms" (milliseconds >= 0) or "set" (an ISO-8601 time)')
const backwards = () => invalidControlBody('the clock only moves forward')
// Every time is rendered as a date somewhere (send_time, ISO times, daily counters); past this an
// app's requests would fail from then on, and its clock never moves back.
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')
const tooLate = () => invalidControlBody('the clock stops at 9999-12-31T23:59:59.999Z')

/**
 * The calling app's clock: read it, or move it forward. A move answers only after everything that
 * fell due up to the new time has run, in order (scheduled messages, delivery reports, reviews,
 * callback retries). Each app has its own clock, so parallel suites do not disturb each other.
 */
export function clockRoutes(deps: AppDeps): RouteSpec[] {
  const { store, scheduler } = deps
  const show = (appKey: string) => {
    const app = store.apps.get(appKey)!
    return { now: deps.clock.now() + app.clockOffsetMs, offset_ms: app.clockOffsetMs }
  }
  return [
    {
      method: 'GET',
      url: '/clock',
      handler: async req => show(req.tenant.app.appKey),
    },
    {
      method: 'POST',
      url: '/clock',
      handler: async req => {
        const body = readControlBody(req.body)
        const { appKey } = req.tenant.app
        const now = show(appKey).now
        const advance = optionalInt(body.advance_ms, invalidMove)
        const set = body.set
        if ((advance === undefined) === (set === undefined || set === null)) throw invalidMove()
        let target: number
        if (advance !== undefined) {
          if (advance < 0) throw backwards()
          target = now + advance
        } else {
          target = typeof set === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(set) ? Date.parse(set) : Number.NaN
          if (Number.isNaN(target)) throw invalidMove()
          if (target < now) throw backwards()
        }
        if (target > LATEST) throw tooLate()
        await scheduler.advance(appKey, target)
        return show(appKey)
      },
    },
  ]
}
