// Wall-clock rendering in a configurable zone. JSMS speaks `yyyy-MM-dd HH:mm:ss` in Beijing
// time (jsms-api.md §2.6); times are stored as epoch milliseconds and formatted only here.

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

function fields(ms: number, timeZone: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const p of formatter(timeZone).formatToParts(ms)) out[p.type] = p.value
  return out
}

/** `yyyy-MM-dd HH:mm:ss` in the zone. */
export function formatLocal(ms: number, timeZone: string): string {
  const f = fields(ms, timeZone)
  return `${f.year}-${f.month}-${f.day} ${f.hour}:${f.minute}:${f.second}`
}

// Every zone's offset and every change of it (DST) is a whole number of quarter hours, so a local
// date changes only at a UTC quarter hour: one key per zone and quarter is exact.
const QUARTER_MS = 15 * 60_000
const lastDays = new Map<string, { quarter: number; key: string }>()

/**
 * `yyyy-MM-dd` in the zone: the key of every "per day" counter. Asked by every push; formatting
 * through Intl costs several µs, so the last key of each zone is kept for its quarter hour.
 */
export function dayKey(ms: number, timeZone: string): string {
  const quarter = Math.floor(ms / QUARTER_MS)
  const last = lastDays.get(timeZone)
  if (last?.quarter === quarter) return last.key
  const key = formatLocal(ms, timeZone).slice(0, 10)
  if (lastDays.size >= 100) lastDays.clear()
  lastDays.set(timeZone, { quarter, key })
  return key
}

/** Milliseconds the zone is ahead of UTC at that instant. */
function zoneOffset(ms: number, timeZone: string): number {
  const f = fields(ms, timeZone)
  const asUtc = Date.UTC(+f.year!, +f.month! - 1, +f.day!, +f.hour!, +f.minute!, +f.second!)
  return asUtc - Math.floor(ms / 1000) * 1000
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/

/** Parses `yyyy-MM-dd HH:mm:ss` as a wall time in the zone; undefined when malformed or impossible. */
export function parseLocal(text: string, timeZone: string): number | undefined {
  const m = LOCAL_TIME.exec(text)
  if (!m) return undefined
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const guess = Date.UTC(y, mo - 1, d, h, mi, s)
  const check = new Date(guess)
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59)
    return undefined
  let ms = guess - zoneOffset(guess, timeZone)
  ms = guess - zoneOffset(ms, timeZone) // second pass settles DST edges
  return ms
}

const dayCache = new Map<string, { start: number; end: number }>()

/**
 * Epoch ms of the start of the local day that contains `ms`. Every daily counter asks this on
 * every send, and formatting through Intl costs more than the rest of a send's checks: the last
 * day seen per zone is remembered.
 */
export function localDayStart(ms: number, timeZone: string): number {
  const hit = dayCache.get(timeZone)
  if (hit && ms >= hit.start && ms < hit.end) return hit.start
  const start = parseLocal(`${dayKey(ms, timeZone)} 00:00:00`, timeZone) ?? ms
  dayCache.set(timeZone, { start, end: nextDayStart(ms, timeZone) })
  return start
}

/** Epoch ms of the start of the next local day: when daily counters roll over. */
function nextDayStart(ms: number, timeZone: string): number {
  const day = dayKey(ms, timeZone)
  const start = parseLocal(`${day} 00:00:00`, timeZone) ?? ms
  return parseLocal(`${dayKey(start + 36 * 3600_000, timeZone)} 00:00:00`, timeZone) ?? ms + 86400_000
}

/** Epoch milliseconds as the control plane's ISO-8601 answer fields show them (UTC). */
export const iso = (ms: number) => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms))
