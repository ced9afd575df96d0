import { isObject, type Json } from '../values.js'

// Scalars sent as strings (`"time_to_live": "60"`, `"builder_id": "1"`, `"apns_production": "true"`).
// The vendor's push server is Java and reads the body with Jackson, whose default
// (MapperFeature.ALLOW_COERCION_OF_SCALARS, on unless turned off) turns a JSON string of digits
// into an int field and "true"/"false" into a boolean one; the PHP client passes configuration
// strings through unchanged (its PushPayload copies `options` as given). So the sandbox takes them
// too, as numbers and booleans, unless the app asks for strict types (`settings.push.strict_types`,
// docs/fidelity.md "Scalars as strings"): then they are 1003 as a strict reader would refuse them.

type Kind = 'int' | 'bool' | 'flag'

// Only the typed scalars the readers check (options.ts, notification.ts); a string where the
// vendor documents a string, or an open object (extras), is never touched.
const PLATFORM_INTS = ['builder_id', 'priority', 'style', 'alert_type', 'badge_add_num', 'badge_set_num']
const SCALARS: Record<string, Record<string, Kind>> = {
  options: {
    time_to_live: 'int',
    big_push_duration: 'int',
    classification: 'int',
    apns_production: 'bool',
    test_model: 'bool',
  },
  'notification.android': Object.fromEntries(PLATFORM_INTS.map(k => [k, 'int' as const])),
  'notification.hmos': { badge_add_num: 'int', badge_set_num: 'int', sound_duration: 'int' },
  'notification.ios': { 'content-available': 'flag', 'mutable-content': 'flag' },
  sms_message: { delay_time: 'int', temp_id: 'int', signid: 'int' },
}

// What Jackson's int reader takes from a string: an optional sign and digits (NumberInput.parseInt);
// bounded so that the number stays exact.
const INTEGER = /^[+-]?\d{1,15}$/

function coerce(value: unknown, kind: Kind): unknown {
  if (typeof value !== 'string') return value
  const text = value.trim()
  if ((kind === 'int' || kind === 'flag') && INTEGER.test(text)) return Number(text)
  if ((kind === 'bool' || kind === 'flag') && (text === 'true' || text === 'false')) return text === 'true'
  return value
}

// The table as the loop reads it, split once: every push runs it (≈ 2 µs a push when each call
// split the paths and listed the entries again).
const TABLE = Object.entries(SCALARS).map(([path, fields]) => ({
  keys: path.split('.'),
  fields: Object.entries(fields),
}))

/** The object at a path of the body, or undefined. */
function at(body: Json, keys: readonly string[]): Json | undefined {
  let o: unknown = body
  for (const key of keys) o = isObject(o) ? o[key] : undefined
  return isObject(o) ? o : undefined
}

/**
 * The body with its typed scalars coerced as Jackson would: a copy where anything changed (the
 * request's own body stays as sent, for the journal), the body itself otherwise.
 */
export function coerceScalars(body: Json): Json {
  let out = body
  for (const { keys, fields } of TABLE) {
    const o = at(out, keys)
    if (!o) continue
    let changed: Json | undefined
    for (const [key, kind] of fields) {
      const v = coerce(o[key], kind)
      if (v !== o[key]) {
        changed ??= { ...o }
        changed[key] = v
      }
    }
    if (changed) out = replaceAt(out, keys, changed)
  }
  return out
}

function replaceAt(o: Json, keys: readonly string[], value: Json): Json {
  const [head, ...rest] = keys as [string, ...string[]]
  return { ...o, [head]: rest.length === 0 ? value : replaceAt(o[head] as Json, rest, value) }
}

/** Whether the app refuses scalars sent as strings (`settings.push.strict_types`). */
export function strictTypesOf(settings: Record<string, unknown>): boolean {
  const push = settings.push
  return isObject(push) && push.strict_types === true
}
