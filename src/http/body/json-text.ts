import type * as LosslessJson from 'lossless-json'
import sjson from 'secure-json-parse'
import { lazy } from '../../lazy.js'

// Only a body holding an integer a double cannot keep is read again (readExactly): lossless-json
// is loaded then, not at start (its 12 ES modules, ≈ 10 ms; docs/performance.md, round 2).
const losslessJson = lazy<typeof LosslessJson>('lossless-json')

/**
 * Deepest nesting of arrays and objects a body may have. JSON.parse itself copes with any depth,
 * but everything after it recurses: JSON.stringify (payload sizes, storage), String() of an array,
 * every validator that walks a value. Node's stack ends at 3 210 levels for String() of nested
 * arrays and 4 173 for JSON.stringify (measured: docs/reliability.md), so one field nested 9 000
 * deep answered 500. 1 000 is the default limit of Jackson (StreamReadConstraints), Java's most
 * common JSON parser, far deeper than any real payload, and under a third of what our stack takes.
 */
export const MAX_JSON_DEPTH = 1_000

/** The body parsed, but nested deeper than MAX_JSON_DEPTH. */
export class TooDeep extends Error {
  constructor() {
    super(`the body nests deeper than ${MAX_JSON_DEPTH} levels`)
  }
}

/**
 * JSON text as a value: JSON.parse through secure-json-parse (`__proto__` and
 * `constructor.prototype` keys removed), nesting bounded, and the integers at `exactIntegers`
 * (dotted paths of object keys) read exactly. Throws SyntaxError or TooDeep.
 */
export function parseJsonText(text: string, exactIntegers?: readonly string[]): unknown {
  const value = sjson.parse(text, null, { protoAction: 'remove', constructorAction: 'remove' })
  if (nestsDeeperThan(text, value, MAX_JSON_DEPTH)) throw new TooDeep()
  if (exactIntegers?.some(path => isRounded(member(value, keysOf(path)))))
    readExactly(text, value, exactIntegers)
  return value
}

/**
 * Whether a parsed value nests deeper than `limit`, walked without recursion. Only a text longer
 * than the limit can be (each level takes a character), so ordinary bodies are not walked at all;
 * walking the value costs a tenth of parsing it, scanning the text's brackets four times that
 * (`npx tsx bench/json-body.ts`).
 */
function nestsDeeperThan(text: string, value: unknown, limit: number): boolean {
  if (text.length <= limit || value === null || typeof value !== 'object') return false
  const values: object[] = [value]
  const depths: number[] = [1]
  while (values.length > 0) {
    const at = values.pop() as Record<string, unknown>
    const depth = depths.pop() as number
    if (depth > limit) return true
    if (Array.isArray(at)) {
      for (let i = 0; i < at.length; i++) {
        const inner = at[i]
        if (inner !== null && typeof inner === 'object') {
          values.push(inner)
          depths.push(depth + 1)
        }
      }
    } else {
      for (const key in at) {
        const inner = at[key]
        if (inner !== null && typeof inner === 'object') {
          values.push(inner)
          depths.push(depth + 1)
        }
      }
    }
  }
  return false
}

// JSON numbers are read as doubles, exact only up to 2^53 (16 digits). A JPush msg_id has 17
// (181…), and the Java (a Gson long) and Ruby clients send `options.override_msg_id` and the
// `msg_id` of status/message as bare numbers: rounded, the override named a message that never was
// and the status query asked about a push that was not this one. An integer past 2^53 is the
// only kind a double may have rounded; finding one at a path costs a few property reads, so the
// text is parsed again only then.
const isRounded = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)

/**
 * Reads the text again with lossless-json (numbers kept as their digits) and puts, at each path
 * where the body holds an integer a double cannot, that integer's digits: the id readers take
 * digit strings already. Everything else keeps JSON.parse's value, so no other number changes
 * meaning (a 20-digit sendno is still out of range, a 20-digit temp_id still invalid).
 */
function readExactly(text: string, value: unknown, paths: readonly string[]): void {
  let exact: unknown
  try {
    // JSON.parse keeps the last of duplicate keys; lossless-json would refuse them.
    exact = losslessJson().parse(text, null, { onDuplicateKey: ({ newValue }) => newValue })
  } catch {
    return // JSON.parse took it, so this cannot happen; if it did, the doubles stand
  }
  for (const path of paths) {
    const keys = keysOf(path)
    const last = keys[keys.length - 1] as string
    const target = member(value, keys.slice(0, -1))
    const number = member(exact, keys)
    if (
      isObject(target) &&
      losslessJson().isLosslessNumber(number) &&
      /^-?\d+$/.test(number.value) &&
      !Number.isSafeInteger(Number(number.value))
    ) {
      target[last] = number.value
    }
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// The few declared paths, split once: this runs on every push.
const splitPaths = new Map<string, readonly string[]>()
function keysOf(path: string): readonly string[] {
  let keys = splitPaths.get(path)
  if (keys === undefined) {
    keys = path.split('.')
    splitPaths.set(path, keys)
  }
  return keys
}

/** The value at a path of own keys of plain objects; undefined when the path leads nowhere. */
function member(value: unknown, keys: readonly string[]): unknown {
  let at = value
  for (const key of keys) {
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined
    at = at[key]
  }
  return at
}
