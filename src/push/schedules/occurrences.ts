import { z } from 'zod'
import type { ScheduleSubject } from '../../advisor/schedule.js'
import { isAbsent, optionalInt } from '../../http/body/fields.js'
import { formatLocal, parseLocal } from '../../time.js'
import { isObject, scalarText } from '../values.js'
import { JPUSH_TIME_ZONE, SCHEDULE_LIMITS, scheduleErrors } from './rules.js'

// A schedule's trigger (jpush-api.md §8): read from its section, checked against the app's now,
// and when it falls due, in Beijing wall-clock time. A "wall" time is the epoch milliseconds of
// the same fields read as UTC: days, weeks and months are then plain Date.UTC arithmetic, and only
// the instants at either end go through the zone.

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

// The trigger section: `single` {time} or `periodical` {start, end, time, time_unit, frequency,
// point}, every time in Beijing time and in full.

const invalidTrigger = (what: string) => scheduleErrors.invalid(`trigger ${what}`)

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']
const UNITS: readonly string[] = ['day', 'week', 'month'] satisfies TimeUnit[]
const TIME_OF_DAY = /^(\d{2}):(\d{2}):(\d{2})$/

/** `YYYY-MM-DD HH:MM:SS`, complete ("2014-2-15 13:16" is refused), as an instant. */
function readDateTime(value: unknown, field: string): number {
  const at = typeof value === 'string' ? parseLocal(value, JPUSH_TIME_ZONE) : undefined
  if (at === undefined) throw invalidTrigger(`${field} must be "YYYY-MM-DD HH:MM:SS"`)
  return at
}

function readTimeOfDay(value: unknown): number {
  const m = typeof value === 'string' ? TIME_OF_DAY.exec(value) : null
  const [h, mi, s] = (m?.slice(1) ?? []).map(Number) as [number, number, number]
  if (!m || h > 23 || mi > 59 || s > 59) throw invalidTrigger('periodical.time must be "HH:MM:SS"')
  return ((h * 60 + mi) * 60 + s) * 1000
}

/** Weekdays (case-insensitive MON…SUN) or month days ("01"…"31"); none for `day`. */
function readPoints(value: unknown, unit: TimeUnit): number[] {
  if (unit === 'day') {
    if (isAbsent(value) || (Array.isArray(value) && value.length === 0)) return []
    throw invalidTrigger('periodical.point must not be given when time_unit is day')
  }
  if (!Array.isArray(value) || value.length === 0)
    throw invalidTrigger(
      `periodical.point must list the ${unit === 'week' ? 'weekdays' : 'days of the month'}`,
    )
  const points = value.map(v => {
    const text = scalarText(v)?.toUpperCase() ?? ''
    const n = unit === 'week' ? WEEKDAYS.indexOf(text) + 1 : /^\d{1,2}$/.test(text) ? Number(text) : 0
    if (n < 1 || n > (unit === 'week' ? 7 : 31))
      throw invalidTrigger(`periodical.point value ${JSON.stringify(v)} is invalid`)
    return n
  })
  return [...new Set(points)].sort((a, b) => a - b)
}

function readPeriodical(p: Record<string, unknown>): PeriodicalTrigger {
  const start = wallOf(readDateTime(p.start, 'periodical.start'))
  const end = wallOf(readDateTime(p.end, 'periodical.end'))
  const timeOfDay = readTimeOfDay(p.time)
  const unit = typeof p.time_unit === 'string' ? p.time_unit.toLowerCase() : ''
  if (!UNITS.includes(unit)) throw invalidTrigger('periodical.time_unit must be day, week or month')
  const frequency = optionalInt(p.frequency, () => invalidTrigger('periodical.frequency is invalid'))
  if (frequency === undefined || frequency < 1 || frequency > SCHEDULE_LIMITS.maxFrequency)
    throw invalidTrigger(`periodical.frequency must be 1 to ${SCHEDULE_LIMITS.maxFrequency}`)
  const points = readPoints(p.point, unit as TimeUnit)
  return { kind: 'periodical', start, end, timeOfDay, unit: unit as TimeUnit, frequency, points }
}

/** The section's shape and values; what depends on the time of the request is `checkTrigger`'s. */
export function parseTrigger(raw: unknown): Trigger {
  if (!isObject(raw)) throw invalidTrigger('section is invalid')
  const single = !isAbsent(raw.single)
  if (single === !isAbsent(raw.periodical)) throw invalidTrigger('must hold either single or periodical')
  if (single) {
    if (!isObject(raw.single)) throw invalidTrigger('single is invalid')
    return { kind: 'single', time: readDateTime(raw.single.time, 'single.time') }
  }
  if (!isObject(raw.periodical)) throw invalidTrigger('periodical is invalid')
  return readPeriodical(raw.periodical)
}

/**
 * The rules at `now` (the app's time), for a new task and for a trigger replaced by PUT: a single
 * task not in the past and at most a year ahead; a periodical one at most a year long, starting
 * at most a year ahead, not over, and firing at least once more before its end.
 */
export function checkTrigger(t: Trigger, now: number): void {
  const yearAhead = addMonths(wallOf(now), SCHEDULE_LIMITS.aheadMonths)
  if (t.kind === 'single') {
    if (t.time < now) throw invalidTrigger('single.time has passed')
    if (wallOf(t.time) > yearAhead) throw invalidTrigger('single.time is more than a year ahead')
    return
  }
  if (t.end <= t.start) throw invalidTrigger('periodical.end must be after its start')
  if (t.end > addMonths(t.start, SCHEDULE_LIMITS.spanMonths))
    throw invalidTrigger('periodical spans more than a year')
  if ((instantOf(t.end) ?? 0) < now) throw invalidTrigger('periodical.end has passed')
  if (t.start > yearAhead) throw invalidTrigger('periodical.start is more than a year ahead')
  if (nextOccurrence(t, now) === undefined)
    throw invalidTrigger('periodical never fires between its start (or now) and its end')
}

const dateTime = (what: string) =>
  z.string().describe(`\`YYYY-MM-DD HH:MM:SS\`, Beijing time, in full: ${what}.`)

/** What the document shows of the section, and what it refuses. */
export const triggerSection = {
  schema: z
    .union([
      z.object({ single: z.object({ time: dateTime('not past, at most a year ahead') }) }),
      z.object({
        periodical: z.object({
          start: dateTime('at most a year ahead'),
          end: dateTime('after the start, at most a year after it, not past'),
          time: z.string().describe('`HH:MM:SS`: when, on each day it fires.'),
          time_unit: z.string().describe('`day`, `week` or `month`, in any case.'),
          frequency: z
            .int()
            .min(1)
            .max(SCHEDULE_LIMITS.maxFrequency)
            .describe('Every how many units (a numeric string is read too).'),
          point: z
            .array(z.string())
            .describe('`week`: `MON`…`SUN` (any case); `month`: `"01"`…`"31"`; `day`: none.')
            .optional(),
        }),
      }),
    ])
    .describe('Either `single` or `periodical`; a task keeps its kind.'),
  /** The section as written (parseTrigger; checked before a PUT's kind). */
  shape: [
    invalidTrigger('must hold either single or periodical'),
    invalidTrigger('single.time must be "YYYY-MM-DD HH:MM:SS"'),
    invalidTrigger('periodical.time_unit must be day, week or month'),
    invalidTrigger(`periodical.frequency must be 1 to ${SCHEDULE_LIMITS.maxFrequency}`),
  ],
  /** Its times against the app's now (checkTrigger). */
  times: [
    invalidTrigger('single.time has passed'),
    invalidTrigger('single.time is more than a year ahead'),
    invalidTrigger('periodical spans more than a year'),
    invalidTrigger('periodical never fires between its start (or now) and its end'),
  ],
}

/** What the advisor's schedule rules read of a trigger (advisor/schedule.ts), at the app's now. */
export function scheduleSubject(t: Trigger, now: number): ScheduleSubject {
  return {
    periodical: t.kind === 'periodical',
    occurrence: from => nextOccurrence(t, from),
    timeZone: JPUSH_TIME_ZONE,
    now,
  }
}
