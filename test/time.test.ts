import { describe, expect, it } from 'vitest'
import { dayKey } from '../src/time.js'

// dayKey keeps the last key of each zone for its UTC quarter hour (src/time.ts): it must still
// change exactly at local midnight, across DST changes and in zones whose offset is not whole hours.

const truth = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms)

describe('dayKey', () => {
  it.each([
    ['Asia/Shanghai', '2026-01-01T00:00:00Z'],
    ['America/New_York', '2026-03-07T00:00:00Z'], // DST starts 8 March
    ['America/New_York', '2026-10-31T00:00:00Z'], // DST ends 1 November
    ['Australia/Lord_Howe', '2026-04-03T00:00:00Z'], // a 30-minute DST change, 5 April
    ['Asia/Kathmandu', '2026-01-01T00:00:00Z'], // UTC+5:45
  ])(
    'in %s changes at local midnight and nowhere else (from %s, every 7 minutes for 3 days)',
    (zone, from) => {
      const start = Date.parse(from)
      for (let ms = start; ms < start + 3 * 86_400_000; ms += 7 * 60_000) {
        expect(dayKey(ms, zone), new Date(ms).toISOString()).toBe(truth(ms, zone))
        expect(dayKey(ms + 59_999, zone)).toBe(truth(ms + 59_999, zone))
      }
    },
  )
})
