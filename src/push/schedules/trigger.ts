import { isAbsent, optionalInt } from '../../http/body/fields.js'
import { parseLocal } from '../../time.js'
import { isObject, scalarText } from '../values.js'
import {
  addMonths,
  instantOf,
  nextOccurrence,
  type PeriodicalTrigger,
  type TimeUnit,
  type Trigger,
  wallOf,
} from './occurrences.js'
import { JPUSH_TIME_ZONE, SCHEDULE_LIMITS, scheduleErrors } from './rules.js'

// The trigger section of a schedule (jpush-api.md §8; docs2019): `single` {time} or `periodical`
// {start, end, time, time_unit, frequency, point}, every time in Beijing time and in full.

const invalid = (what: string) => scheduleErrors.invalid(`trigger ${what}`)

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN']
const UNITS: readonly string[] = ['day', 'week', 'month'] satisfies TimeUnit[]
const TIME_OF_DAY = /^(\d{2}):(\d{2}):(\d{2})$/

/** `YYYY-MM-DD HH:MM:SS`, complete ("2014-2-15 13:16" is refused), as an instant. */
function readDateTime(value: unknown, field: string): number {
  const at = typeof value === 'string' ? parseLocal(value, JPUSH_TIME_ZONE) : undefined
  if (at === undefined) throw invalid(`${field} must be "YYYY-MM-DD HH:MM:SS"`)
  return at
}

function readTimeOfDay(value: unknown): number {
  const m = typeof value === 'string' ? TIME_OF_DAY.exec(value) : null
  const [h, mi, s] = (m?.slice(1) ?? []).map(Number) as [number, number, number]
  if (!m || h > 23 || mi > 59 || s > 59) throw invalid('periodical.time must be "HH:MM:SS"')
  return ((h * 60 + mi) * 60 + s) * 1000
}

/** Weekdays (case-insensitive MON…SUN) or month days ("01"…"31"); none for `day`. */
function readPoints(value: unknown, unit: TimeUnit): number[] {
  if (unit === 'day') {
    if (isAbsent(value) || (Array.isArray(value) && value.length === 0)) return []
    throw invalid('periodical.point must not be given when time_unit is day')
  }
  if (!Array.isArray(value) || value.length === 0)
    throw invalid(`periodical.point must list the ${unit === 'week' ? 'weekdays' : 'days of the month'}`)
  const points = value.map(v => {
    const text = scalarText(v)?.toUpperCase() ?? ''
    const n = unit === 'week' ? WEEKDAYS.indexOf(text) + 1 : /^\d{1,2}$/.test(text) ? Number(text) : 0
    if (n < 1 || n > (unit === 'week' ? 7 : 31))
      throw invalid(`periodical.point value ${JSON.stringify(v)} is invalid`)
    return n
  })
  return [...new Set(points)].sort((a, b) => a - b)
}

function readPeriodical(p: Record<string, unknown>): PeriodicalTrigger {
  const start = wallOf(readDateTime(p.start, 'periodical.start'))
  const end = wallOf(readDateTime(p.end, 'periodical.end'))
  const timeOfDay = readTimeOfDay(p.time)
  const unit = typeof p.time_unit === 'string' ? p.time_unit.toLowerCase() : ''
  if (!UNITS.includes(unit)) throw invalid('periodical.time_unit must be day, week or month')
  const frequency = optionalInt(p.frequency, () => invalid('periodical.frequency is invalid'))
  if (frequency === undefined || frequency < 1 || frequency > SCHEDULE_LIMITS.maxFrequency)
    throw invalid(`periodical.frequency must be 1 to ${SCHEDULE_LIMITS.maxFrequency}`)
  const points = readPoints(p.point, unit as TimeUnit)
  return { kind: 'periodical', start, end, timeOfDay, unit: unit as TimeUnit, frequency, points }
}

/** The section's shape and values; what depends on the time of the request is `checkTrigger`'s. */
export function parseTrigger(raw: unknown): Trigger {
  if (!isObject(raw)) throw invalid('section is invalid')
  const single = !isAbsent(raw.single)
  if (single === !isAbsent(raw.periodical)) throw invalid('must hold either single or periodical')
  if (single) {
    if (!isObject(raw.single)) throw invalid('single is invalid')
    return { kind: 'single', time: readDateTime(raw.single.time, 'single.time') }
  }
  if (!isObject(raw.periodical)) throw invalid('periodical is invalid')
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
    if (t.time < now) throw invalid('single.time has passed')
    if (wallOf(t.time) > yearAhead) throw invalid('single.time is more than a year ahead')
    return
  }
  if (t.end <= t.start) throw invalid('periodical.end must be after its start')
  if (t.end > addMonths(t.start, SCHEDULE_LIMITS.spanMonths))
    throw invalid('periodical spans more than a year')
  if ((instantOf(t.end) ?? 0) < now) throw invalid('periodical.end has passed')
  if (t.start > yearAhead) throw invalid('periodical.start is more than a year ahead')
  if (nextOccurrence(t, now) === undefined)
    throw invalid('periodical never fires between its start (or now) and its end')
}
