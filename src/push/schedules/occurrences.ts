import { formatLocal, parseLocal } from '../../time.js'
import { JPUSH_TIME_ZONE } from './rules.js'

// When a schedule's trigger falls due, in Beijing wall-clock time (jpush-api.md §8). A "wall" time
// is the epoch milliseconds of the same fields read as UTC: days, weeks and months are then plain
// Date.UTC arithmetic, and only the instants at either end go through the zone.

export const DAY_MS = 86_400_000
const WEEK_MS = 7 * DAY_MS

export type TimeUnit = 'day' | 'week' | 'month'

export interface SingleTrigger {
  kind: 'single'
  /** The instant it fires. */
  time: number
}

export interface PeriodicalTrigger {
  kind: 'periodical'
  /** Wall times: it fires at the trigger points within [start, end]. */
  start: number
  end: number
  /** Milliseconds after the wall midnight of each point. */
  timeOfDay: number
  unit: TimeUnit
  frequency: number
  /** Days of the week (1 Monday … 7 Sunday) or of the month (1…31), ascending; none for `day`. */
  points: number[]
}

export type Trigger = SingleTrigger | PeriodicalTrigger

const mod = (a: number, n: number) => ((a % n) + n) % n

/** The Beijing wall time of an instant (milliseconds kept). */
export function wallOf(ms: number): number {
  const text = formatLocal(ms, JPUSH_TIME_ZONE)
  return Date.parse(`${text.replace(' ', 'T')}Z`) + mod(ms, 1000)
}

/** The instant of a Beijing wall time; undefined outside the years 0000–9999. */
export function instantOf(wall: number): number | undefined {
  const iso = new Date(wall).toISOString()
  const at = parseLocal(`${iso.slice(0, 10)} ${iso.slice(11, 19)}`, JPUSH_TIME_ZONE)
  return at === undefined ? undefined : at + mod(wall, 1000)
}

/** `months` calendar months after a wall time (the 29th of February plus a year is the 1st of March). */
export function addMonths(wall: number, months: number): number {
  const d = new Date(wall)
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() + months,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  )
}

const midnight = (wall: number) => wall - mod(wall, DAY_MS)

/**
 * The days (wall midnights) the trigger may fire on, ascending, from the cycle that holds `from`
 * on. The cycle starts with the unit that holds `start`: every `frequency`-th day, week (Monday
 * to Sunday) or month from there. Month days a month lacks (the 31st of April) are skipped.
 */
function* days(t: PeriodicalTrigger, from: number): Generator<number> {
  const first = midnight(t.start)
  const f = t.frequency
  if (t.unit === 'day') {
    for (let k = Math.floor((midnight(from) - first) / DAY_MS / f); ; k++) yield first + k * f * DAY_MS
  } else if (t.unit === 'week') {
    const monday = first - mod(new Date(first).getUTCDay() - 1, 7) * DAY_MS
    for (let k = Math.floor((midnight(from) - monday) / WEEK_MS / f); ; k++)
      for (const p of t.points) yield monday + k * f * WEEK_MS + (p - 1) * DAY_MS
  } else {
    const monthOf = (wall: number) => new Date(wall).getUTCFullYear() * 12 + new Date(wall).getUTCMonth()
    const firstMonth = monthOf(first)
    for (let k = Math.floor((monthOf(from) - firstMonth) / f); ; k++) {
      const month = firstMonth + k * f
      const [y, m] = [Math.floor(month / 12), month % 12]
      // Past the end: no later month can hold a point (and one without any, point "31" every
      // February, must not loop for ever).
      if (Date.UTC(y, m, 1) > t.end) return
      const length = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
      for (const d of t.points) if (d <= length) yield Date.UTC(y, m, d)
    }
  }
}

/** The first time the trigger fires at or after the instant `from`; undefined when it never does. */
export function nextOccurrence(t: Trigger, from: number): number | undefined {
  if (t.kind === 'single') return t.time >= from ? t.time : undefined
  const lo = Math.max(t.start, wallOf(from))
  for (const day of days(t, lo)) {
    const at = day + t.timeOfDay
    if (at > t.end) return undefined
    if (at >= lo) return instantOf(at)
  }
  return undefined
}

/** The instant after which the task is over (expired): a single task's time, a periodical one's end. */
export function endOf(t: Trigger): number {
  return t.kind === 'single' ? t.time : (instantOf(t.end) ?? Number.MAX_SAFE_INTEGER)
}
