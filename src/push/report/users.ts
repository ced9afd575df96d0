import type { AppDeps } from '../../deps.js'
import { type RouteSpec, route } from '../../http/routes.js'
import type { Store } from '../../store/index.js'
import type { PushPlatform } from '../../store/push/devices.js'
import { dayKey } from '../../time.js'
import { usersDocs } from './docs.js'
import { type Period, readUsersQuery, type UsersQueryString } from './periods.js'

// GET /v3/users (jpush-api.md §6.5): per period, per platform, what the app's devices did —
//   new     devices registered in the period;
//   online  devices online at some moment of it (from their online sessions);
//   active  devices that received or opened a push in it.
// A counter with nothing to count is left out, and so is a platform with none (the docs' "no
// data"). WinPhone is not among the platforms the service reports users for.

const PLATFORMS = ['android', 'ios', 'quickapp', 'hmos'] as const satisfies readonly PushPlatform[]
type Counter = 'new' | 'online' | 'active'
type Tally = Map<PushPlatform, Partial<Record<Counter, number>>>

/** The period `at` falls in, or -1 (periods are consecutive and in order). */
function periodOf(periods: Period[], at: number): number {
  let [lo, hi] = [0, periods.length - 1]
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const p = periods[mid]!
    if (at < p.from) hi = mid - 1
    else if (at >= p.to) lo = mid + 1
    else return mid
  }
  return -1
}

function tallyUsers(store: Store, appKey: string, periods: Period[], now: number): Tally[] {
  const tallies: Tally[] = periods.map(() => new Map())
  const count = (i: number, platform: PushPlatform, counter: Counter) => {
    if (i < 0) return
    const own = tallies[i]!.get(platform) ?? {}
    own[counter] = (own[counter] ?? 0) + 1
    tallies[i]!.set(platform, own)
  }
  const from = periods[0]!.from
  const to = periods.at(-1)!.to
  for (const d of store.pushActivity.registered(appKey, from, to))
    count(periodOf(periods, d.at), d.platform, 'new')
  // A device counts once per period, however many sessions it had in it; an open one ends now.
  let last = { rid: '', period: -1 }
  for (const s of store.pushActivity.onlineSessions(appKey, from, to)) {
    const end = s.off ?? now + 1
    if (s.rid !== last.rid) last = { rid: s.rid, period: -1 }
    for (let i = Math.max(periodOf(periods, Math.max(s.on, from)), 0); i < periods.length; i++) {
      if (periods[i]!.from >= end) break
      if (i > last.period) count(i, s.platform, 'online')
      last.period = Math.max(last.period, i)
    }
  }
  const seen = new Set<string>()
  for (const m of store.pushActivity.active(appKey, from, to)) {
    const i = periodOf(periods, m.at)
    if (seen.has(`${i} ${m.rid}`)) continue
    seen.add(`${i} ${m.rid}`)
    count(i, m.platform, 'active')
  }
  return tallies
}

export function pushUserRoutes(deps: AppDeps): RouteSpec[] {
  const { store, config } = deps
  return [
    route<{ Querystring: UsersQueryString }>({
      method: 'GET',
      url: '/users',
      docs: usersDocs,
      handler: async req => {
        const now = req.tenant.now()
        const { time_unit, start, duration } = req.query
        // jpush-async sends no query string at all (sdk-wire-capture.md §4.3): today, by day.
        const given = time_unit ?? start ?? duration
        const query = readUsersQuery(
          given === undefined
            ? { time_unit: 'DAY', start: dayKey(now, config.timeZone), duration: '1' }
            : req.query,
          now,
          config.timeZone,
        )
        const tallies = tallyUsers(store, req.tenant.app.appKey, query.periods, now)
        return {
          time_unit: query.timeUnit,
          start: query.start,
          duration: query.duration,
          items: query.periods.map((p, i) => {
            const item: Record<string, unknown> = { time: p.time }
            for (const platform of PLATFORMS) {
              const own = tallies[i]!.get(platform)
              if (own) item[platform] = own
            }
            return item
          }),
        }
      },
    }),
  ]
}
