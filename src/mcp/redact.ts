// No tool shows a secret. The answers pass on what the control plane holds, and some of it was
// written with one inside: an `app.changed` event carries the app as GET /_sandbox/app shows it,
// its developer's dev_secret included, and the exported document keeps the app's events (their
// `data` as JSON text). So every answer is walked before it leaves: a value under a key naming a
// secret or a password is redacted, in objects and in JSON held as text, as the request journal
// redacts the bodies it keeps (http/journal.ts).

const SECRET_KEY = /secret|password/i
export const REDACTED = '[redacted]'

/** `value` with every secret's value redacted (the same object when there is none). */
export function redactSecrets<T>(value: T): T {
  return walk(value) as T
}

function walk(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value)
  if (Array.isArray(value)) {
    const items = value.map(walk)
    return items.some((item, i) => item !== value[i]) ? items : value
  }
  if (value === null || typeof value !== 'object') return value
  let changed = false
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    const next = SECRET_KEY.test(key) && typeof v === 'string' && v !== REDACTED ? REDACTED : walk(v)
    if (next !== v) changed = true
    out[key] = next
  }
  return changed ? out : value
}

/** JSON held as text (an event's data in a document's row), redacted the same way. */
function redactText(text: string): string {
  if (!SECRET_KEY.test(text) || !/^\s*[[{]/.test(text)) return text
  try {
    const parsed: unknown = JSON.parse(text)
    const redacted = walk(parsed)
    return redacted === parsed ? text : JSON.stringify(redacted)
  } catch {
    return text
  }
}
