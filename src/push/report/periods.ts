import { firstValue, type QueryValue } from '../../http/body/query.js'
import { dayKey, parseLocal } from '../../time.js'
import { reportErrors } from '../errors.js'

// The query of GET /v3/users (jpush-api.md §6.5): `time_unit` HOUR, DAY or MONTH; `start` in
// that unit's format (`yyyy-MM-dd HH`, `yyyy-MM-dd`, `yyyy-MM`) in Beijing time (the sandbox's
// time zone); `duration` periods. HOUR answers only within the start's day (the rb test: from
// 04:00 for 24 hours, 20 items) and at most 24; DAY at most 60, MONTH at most 2: beyond, the query
// reaches past the 60 days the service keeps (3005).

export type TimeUnit = 'HOUR' | 'DAY' | 'MONTH'

/** One item of the answer: its label and its span `[from, to)` in epoch ms. */
export interface Period {
  time: string
  from: number
  to: number
}

export interface UsersQuery {
  timeUnit: TimeUnit
  start: string
  /** As echoed: the requested duration, HOUR's capped at 24. */
  duration: number
  periods: Period[]
}

export type UsersQueryString = { time_unit?: QueryValue; start?: QueryValue; duration?: QueryValue }

const FORMATS: Record<TimeUnit, RegExp> = {
  HOUR: /^(\d{4})-(\d{2})-(\d{2}) (\d{2})$/,
  DAY: /^(\d{4})-(\d{2})-(\d{2})$/,
  MONTH: /^(\d{4})-(\d{2})$/,
}
export const USERS_LIMITS = { HOUR: 24, DAY: 60, MONTH: 2, lookbackDays: 60 } as const

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
export function readUsersQuery(query: UsersQueryString, now: number, timeZone: string): UsersQuery {
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
  if (unit !== 'HOUR' && requested > USERS_LIMITS[unit]) throw reportErrors.tooFarBack()
  const duration = Math.min(requested, USERS_LIMITS[unit])
  // HOUR: the hours left in the start's day, at most.
  const count = unit === 'HOUR' ? Math.min(duration, 24 - start.getUTCHours()) : duration
  const bounds = Array.from({ length: count + 1 }, (_, i) => step(unit, start, i))
  const periods = bounds.slice(0, -1).map((at, i) => ({
    time: label(unit, at),
    from: instant(at, timeZone),
    to: instant(bounds[i + 1]!, timeZone),
  }))
  const earliest = parseLocal(
    `${dayKey(now - USERS_LIMITS.lookbackDays * DAY_MS, timeZone)} 00:00:00`,
    timeZone,
  )
  if (earliest !== undefined && periods[0]!.to <= earliest) throw reportErrors.tooFarBack()
  return { timeUnit: unit, start: periods[0]!.time, duration, periods }
}
