// @ts-check
// How values read on the page: times in Beijing time as both vendors show them, spans of time,
// JSON, and the search box's matching.

/** Whether any of the values contains the search text (case-insensitive); an empty search matches. */
export function matches(search, ...values) {
  if (!search) return true
  const q = search.toLowerCase()
  return values.some(
    v =>
      v !== undefined &&
      v !== null &&
      String(typeof v === 'object' ? JSON.stringify(v) : v)
        .toLowerCase()
        .includes(q),
  )
}

const pad = n => String(n).padStart(2, '0')

/** An instant in Beijing time (UTC+8, no daylight saving), as both vendors show times: `yyyy-MM-dd HH:mm:ss`. */
export function beijing(iso) {
  if (iso === undefined || iso === null) return ''
  const d = new Date(new Date(iso).getTime() + 8 * 3600_000)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** Pretty JSON for a `<pre>`. */
export const json = value => JSON.stringify(value, null, 2)

/** A body as the journal kept it: JSON indented, anything else as it was. */
export function pretty(text) {
  if (!text) return ''
  try {
    return json(JSON.parse(text))
  } catch {
    return text
  }
}

/** A span of time as a person reads it: `2 days 3 h 5 min`, `40 s`, `0`. */
export function duration(ms) {
  const sign = ms < 0 ? '-' : ''
  let s = Math.round(Math.abs(ms) / 1000)
  const parts = []
  /** @type {Array<[string, number]>} */
  const units = [
    ['day', 86_400],
    ['h', 3600],
    ['min', 60],
  ]
  for (const [unit, size] of units) {
    const n = Math.floor(s / size)
    s -= n * size
    if (n > 0) parts.push(unit === 'day' ? `${n} day${n === 1 ? '' : 's'}` : `${n} ${unit}`)
  }
  if (s > 0 && parts.length < 2) parts.push(`${s} s`)
  return parts.length === 0 ? '0' : sign + parts.join(' ')
}

/** How long ago, in one unit: `just now`, `40 s ago`, `3 min ago`, `2 h ago`, `5 days ago`. */
export function ago(ms) {
  const s = Math.max(0, Math.round(ms / 1000))
  if (s < 5) return 'just now'
  if (s < 60) return `${s} s ago`
  if (s < 3600) return `${Math.floor(s / 60)} min ago`
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`
  const days = Math.floor(s / 86_400)
  return `${days} day${days === 1 ? '' : 's'} ago`
}

/** `1 text`, `2 texts`; `push`, `pushes`. */
export const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** Copies text; the clipboard API needs a secure context (localhost is one, a LAN address is not). */
export async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text)
    return
  }
  const area = document.createElement('textarea')
  area.readOnly = true
  area.className = 'offscreen'
  area.setAttribute('aria-hidden', 'true')
  area.value = text
  document.body.append(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}
