import { describe, expect, it } from 'vitest'
import {
  checkTrigger,
  nextOccurrence,
  parseTrigger,
  type Trigger,
} from '../../src/push/schedules/occurrences.js'
import { at, beijing } from './schedule-helpers.js'

// When a trigger fires (jpush-api.md §8, docs2019), in Beijing time: the cycle of `frequency`
// units starts with the unit (day, Monday-to-Sunday week, month) that holds `start`.

const periodical = (p: Record<string, unknown>): Trigger =>
  parseTrigger({ periodical: { frequency: 1, ...p } })

/** The first `n` occurrences from `from`, as Beijing times. */
function occurrences(t: Trigger, from: number, n = 10): string[] {
  const out: string[] = []
  for (let next = nextOccurrence(t, from); next !== undefined && out.length < n; ) {
    out.push(beijing(next))
    next = nextOccurrence(t, next + 1)
  }
  return out
}

describe('single', () => {
  it('fires once, at its Beijing time', () => {
    const t = parseTrigger({ single: { time: '2026-01-01 09:00:00' } })
    expect(t).toEqual({ kind: 'single', time: Date.parse('2026-01-01T01:00:00Z') })
    expect(occurrences(t, at('2026-01-01 08:00:00'))).toEqual(['2026-01-01 09:00:00'])
    expect(nextOccurrence(t, at('2026-01-01 09:00:01'))).toBeUndefined()
  })
})

describe('periodical', () => {
  it('day: the first time after start, then every `frequency` days; the end itself included', () => {
    const t = periodical({
      start: '2026-03-01 10:00:00',
      end: '2026-03-04 09:00:00',
      time: '09:00:00',
      time_unit: 'DAY',
    })
    expect(occurrences(t, at('2026-01-01 00:00:00'))).toEqual([
      '2026-03-02 09:00:00',
      '2026-03-03 09:00:00',
      '2026-03-04 09:00:00',
    ])
    const every3 = periodical({
      start: '2026-03-01 08:00:00',
      end: '2026-03-10 00:00:00',
      time: '09:00:00',
      time_unit: 'day',
      frequency: 3,
    })
    expect(occurrences(every3, at('2026-03-01 08:00:00'))).toEqual([
      '2026-03-01 09:00:00',
      '2026-03-04 09:00:00',
      '2026-03-07 09:00:00',
    ])
    // From the middle of a cycle: the next day of the cycle, never a day between.
    expect(occurrences(every3, at('2026-03-02 00:00:00'), 1)).toEqual(['2026-03-04 09:00:00'])
  })

  it('week: the points of every `frequency`-th week (Monday to Sunday), case-insensitive', () => {
    // 2026-03-04 is a Wednesday.
    const t = periodical({
      start: '2026-03-04 12:00:00',
      end: '2026-04-01 00:00:00',
      time: '12:00:00',
      time_unit: 'Week',
      frequency: 2,
      point: ['fri', 'WED'],
    })
    expect(occurrences(t, at('2026-03-01 00:00:00'))).toEqual([
      '2026-03-04 12:00:00',
      '2026-03-06 12:00:00',
      '2026-03-18 12:00:00',
      '2026-03-20 12:00:00',
    ])
    // Starting on the Thursday: that week's Wednesday is before the start, its Friday is not.
    const thursday = periodical({
      start: '2026-03-05 00:00:00',
      end: '2026-03-19 00:00:00',
      time: '12:00:00',
      time_unit: 'week',
      frequency: 2,
      point: ['WED', 'FRI'],
    })
    expect(occurrences(thursday, at('2026-03-01 00:00:00'))).toEqual([
      '2026-03-06 12:00:00',
      '2026-03-18 12:00:00',
    ])
  })

  it('month: the listed days of every `frequency`-th month; days a month lacks are skipped', () => {
    const t = periodical({
      start: '2026-01-20 00:00:00',
      end: '2026-05-01 00:00:00',
      time: '08:00:00',
      time_unit: 'MONTH',
      point: ['31', '15'],
    })
    expect(occurrences(t, at('2026-01-01 00:00:00'))).toEqual([
      '2026-01-31 08:00:00',
      '2026-02-15 08:00:00',
      '2026-03-15 08:00:00',
      '2026-03-31 08:00:00',
      '2026-04-15 08:00:00',
    ])
  })

  it('a trigger with no time left answers none, and does not loop on months without the day', () => {
    const februaries = periodical({
      start: '2026-02-01 00:00:00',
      end: '2027-01-31 00:00:00',
      time: '08:00:00',
      time_unit: 'month',
      frequency: 12,
      point: ['31'],
    })
    expect(nextOccurrence(februaries, at('2026-01-01 00:00:00'))).toBeUndefined()
    expect(() => checkTrigger(februaries, at('2026-01-01 00:00:00'))).toThrow(/never fires/)
  })
})
