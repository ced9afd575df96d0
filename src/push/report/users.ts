import { z } from 'zod'
import type { PipelineDeps } from '../../deps.js'
import type { PushPlatform } from '../../device.js'
import { firstValue, type QueryValue } from '../../http/body/query.js'
import { part } from '../../http/reads.js'
import { type RouteSpec, vendorRoute } from '../../http/routes.js'
import type { Store } from '../../store/index.js'
import { dayKey, parseLocal } from '../../time.js'
import { reportErrors } from '../errors.js'
import { dropsItsQuery } from './query-less.js'

// GET /v3/users (jpush-api.md §6.5): per period, per platform, what the app's devices did —
//   new     devices registered in the period;
//   online  devices online at some moment of it (from their online sessions);
//   active  devices that received or opened a push in it.
// A counter with nothing to count is left out, and so is a platform with none (the docs' "no
// data"). WinPhone is not among the platforms the service reports users for.

const PLATFORMS = ['android', 'ios', 'quickapp', 'hmos'] as const satisfies readonly PushPlatform[]
type Counter = 'new' | 'online' | 'active'
type Tally = Map<PushPlatform, Partial<Record<Counter, number>>>

// The query of GET /v3/users (jpush-api.md §6.5): `time_unit` HOUR, DAY or MONTH; `start` in
// that unit's format (`yyyy-MM-dd HH`, `yyyy-MM-dd`, `yyyy-MM`) in Beijing time (the sandbox's
// time zone); `duration` periods. HOUR answers only within the start's day (the rb test: from
// 04:00 for 24 hours, 20 items) and at most 24; DAY at most 60, MONTH at most 2: beyond, the query
// reaches past the 60 days the service keeps (3005).

type TimeUnit = 'HOUR' | 'DAY' | 'MONTH'

/** One item of the answer: its label and its span `[from, to)` in epoch ms. */
interface Period {
  time: string
  from: number
  to: number
}

interface UsersQuery {
  timeUnit: TimeUnit
  start: string
  /** As echoed: the requested duration, HOUR's capped at 24. */
  duration: number
  periods: Period[]
}

type UsersQueryString = { time_unit?: QueryValue; start?: QueryValue; duration?: QueryValue }

const FORMATS: Record<TimeUnit, RegExp> = {
  HOUR: /^(\d{4})-(\d{2})-(\d{2}) (\d{2})$/,
  DAY: /^(\d{4})-(\d{2})-(\d{2})$/,
  MONTH: /^(\d{4})-(\d{2})$/,
}
export interface UsersLimits {
  HOUR: number
  DAY: number
  MONTH: number
  /** How far back the start may be, in days. */
  lookbackDays: number
}

const USERS_LIMITS: UsersLimits = { HOUR: 24, DAY: 60, MONTH: 2, lookbackDays: 60 }

const DAY_MS = 86_400_000
const pad = (n: number) => String(n).padStart(2, '0')

/** A calendar position (a Date read in UTC) as the unit's label. */
function label(unit: TimeUnit, d: Date): string {
  const month = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`
  if (unit === 'MONTH') return month
  const day = `${month}-${pad(d.getUTCDate())}`
  return unit === 'DAY' ? day : `${day} ${pad(d.getUTCHours())}`
}

/** The start as a calendar position, or undefined when it is not a real time in the unit's format. */
function readStart(unit: TimeUnit, text: string): Date | undefined {
  const m = FORMATS[unit].exec(text.trim())
  if (!m) return undefined
  const [y, mo, d = 1, h = 0] = m.slice(1).map(Number) as [number, number, number?, number?]
  const at = new Date(Date.UTC(y, mo - 1, d, h))
  return label(unit, at) === text.trim() ? at : undefined
}

/** The `i`-th period's calendar position after `start`. */
function step(unit: TimeUnit, start: Date, i: number): Date {
  const [y, mo, d, h] = [start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate(), start.getUTCHours()]
  if (unit === 'MONTH') return new Date(Date.UTC(y, mo + i, 1))
  if (unit === 'DAY') return new Date(Date.UTC(y, mo, d + i))
  return new Date(Date.UTC(y, mo, d, h + i))
}

/** Epoch ms at which a calendar position begins in the zone. */
function instant(at: Date, timeZone: string): number {
  const text = `${label('DAY', at)} ${pad(at.getUTCHours())}:00:00`
  return parseLocal(text, timeZone) ?? at.getTime()
}

/**
 * Reads the query, checking in this order: time_unit (3002), start (absent 3002, not in the unit's
 * format 3004), duration (not a whole number ≥ 1: 3002; over DAY's 60 or MONTH's 2: 3005), and
 * a start more than 60 days before today (3005).
 */
function readUsersQuery(
  query: UsersQueryString,
  now: number,
  timeZone: string,
  limits: UsersLimits,
): UsersQuery {
  const unit = firstValue(query.time_unit)?.trim().toUpperCase()
  if (unit !== 'HOUR' && unit !== 'DAY' && unit !== 'MONTH')
    throw reportErrors.invalid('time_unit must be HOUR, DAY or MONTH')
  const text = firstValue(query.start)
  if (text === undefined || text === '') throw reportErrors.invalid('start is required')
  const start = readStart(unit, text)
  if (!start) throw reportErrors.timeUnitMismatch()
  const durationText = firstValue(query.duration)?.trim() ?? ''
  if (!/^\d{1,9}$/.test(durationText) || Number(durationText) < 1)
    throw reportErrors.invalid('duration must be a whole number of at least 1')
  const requested = Number(durationText)
  if (unit !== 'HOUR' && requested > limits[unit]) throw reportErrors.tooFarBack(limits.lookbackDays)
  const duration = Math.min(requested, limits[unit])
  // HOUR: the hours left in the start's day, at most.
  const count = unit === 'HOUR' ? Math.min(duration, 24 - start.getUTCHours()) : duration
  const bounds = Array.from({ length: count + 1 }, (_, i) => step(unit, start, i))
  const periods = bounds.slice(0, -1).map((at, i) => ({
    time: label(unit, at),
    from: instant(at, timeZone),
    to: instant(bounds[i + 1]!, timeZone),
  }))
  const earliest = parseLocal(`${dayKey(now - limits.lookbackDays * DAY_MS, timeZone)} 00:00:00`, timeZone)
  if (earliest !== undefined && periods[0]!.to <= earliest) throw reportErrors.tooFarBack(limits.lookbackDays)
  return { timeUnit: unit, start: periods[0]!.time, duration, periods }
}

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

export function tallyUsers(store: Store, appKey: string, periods: Period[], now: number): Tally[] {
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

/** The query, read at the app's `now` in the sandbox's time zone, within `limits`. */
export const usersQueryOf = (limits: UsersLimits) =>
  part({
    in: 'query',
    read(req, now: number, timeZone: string): UsersQuery {
      const q = req.query as UsersQueryString
      // jpush-async sends no query string at all (query-less.ts): today, by day. Anyone else
      // without a query is told what is missing (3002).
      const given = q.time_unit ?? q.start ?? q.duration ?? (dropsItsQuery(req) ? undefined : '')
      const asked =
        given === undefined ? { time_unit: 'DAY', start: dayKey(now, timeZone), duration: '1' } : q
      return readUsersQuery(asked, now, timeZone, limits)
    },
    schema: z.object({
      time_unit: z.string().describe('`HOUR`, `DAY` or `MONTH`, in any case.'),
      start: z
        .string()
        .describe('`yyyy-MM-dd HH`, `yyyy-MM-dd` or `yyyy-MM`, as the unit says; Beijing time.'),
      duration: z
        .string()
        .describe(
          `Periods: HOUR at most ${limits.HOUR} and within the start's day, DAY at most ${limits.DAY}, MONTH at most ${limits.MONTH}.`,
        ),
    }),
    errors: [
      reportErrors.invalid('time_unit must be HOUR, DAY or MONTH'),
      reportErrors.invalid('start is required'),
      reportErrors.timeUnitMismatch(),
      reportErrors.invalid('duration must be a whole number of at least 1'),
      reportErrors.tooFarBack(limits.lookbackDays),
    ],
  })

const usersQuery = usersQueryOf(USERS_LIMITS)

const users = z.object({ new: z.int(), online: z.int(), active: z.int() }).partial()

export const usersAnswer = z.object({
  time_unit: z.enum(['HOUR', 'DAY', 'MONTH']),
  start: z.string(),
  duration: z.int().describe("As asked; HOUR's capped at 24."),
  items: z.array(
    z.object({
      time: z.string(),
      android: users.optional(),
      ios: users.optional(),
      quickapp: users.optional(),
      hmos: users.optional(),
    }),
  ),
})

/** The answer of the query from its tallies, one per period; several apps' are summed (a group's). */
export function usersView(query: UsersQuery, tallies: Tally[][]): z.input<typeof usersAnswer> {
  return {
    time_unit: query.timeUnit,
    start: query.start,
    duration: query.duration,
    items: query.periods.map((p, i) => {
      const item: { time: string } & Partial<Record<PushPlatform, Partial<Record<Counter, number>>>> = {
        time: p.time,
      }
      for (const platform of PLATFORMS) {
        for (const own of tallies.map(t => t[i]!.get(platform))) {
          if (!own) continue
          const sum = item[platform] ?? {}
          for (const [counter, n] of Object.entries(own) as Array<[Counter, number]>)
            sum[counter] = (sum[counter] ?? 0) + n
          item[platform] = sum
        }
      }
      return item
    }),
  }
}

export function pushUserRoutes(deps: PipelineDeps): RouteSpec[] {
  const { store, config } = deps
  return [
    vendorRoute({
      method: 'GET',
      url: '/users',
      summary: 'Devices new, online and active, per period and platform (jpush-api.md §6.5)',
      description:
        "From what the app's devices did: registered in the period, online at some moment of it, " +
        'received or opened a push in it. A counter or platform with nothing to count is left out. ' +
        'Without any of the three parameters (jpush-async sends none): today, by day. Also at ' +
        '`/v3/report/users` (the Beijing data centre, jpush-api.md §1.1).',
      // Read with the now its periods are counted to.
      checks: [usersQuery],
      answer: usersAnswer,
      handler: async req => {
        const now = req.tenant.now()
        const query = usersQuery.read(req, now, config.timeZone)
        return usersView(query, [tallyUsers(store, req.tenant.app.appKey, query.periods, now)])
      },
    }),
  ]
}
