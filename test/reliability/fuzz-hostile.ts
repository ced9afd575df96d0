import fc from 'fast-check'
import {
  dotnetForm,
  GIF,
  JPEG,
  javaForm,
  PNG,
  phpForm,
  pythonForm,
  unclosed,
} from '../fixtures/sign-forms.js'
import { INJECTION } from './fuzz-inputs.js'

// The classes of hostile body that each once took a 500 or the whole process (issue 9), as
// generators, so new routes and new fields stay covered: multipart forms that end early, one
// field nested deep, big integers in numeric fields. (Slow bodies need a real socket: fuzz.test.ts.)

export interface RawBody {
  contentType: string
  body: string | Buffer
}

// Where an ordinary body of each surface holds a value: the deep or big one goes in place of "@".
const SHAPES: unknown[] = [
  { F: '@' },
  { mobile: '@', temp_id: 1 },
  { mobile: '13800138000', temp_id: 2, temp_para: { order: '@', days: '1' } },
  { temp_id: 2, recipients: [{ mobile: '@', temp_para: { order: 'A' } }] },
  { temp_id: 2, recipients: [{ mobile: '13800138001', temp_para: { order: '@' } }] },
  {
    platform: 'all',
    audience: 'all',
    notification: { alert: 'x', android: { alert: 'x', extras: { k: '@' } } },
  },
  { platform: 'all', audience: 'all', notification: { alert: 'x', ios: { alert: 'x', badge: '@' } } },
  { platform: 'all', audience: 'all', message: { msg_content: 'x', extras: { k: '@' } } },
  { platform: 'all', audience: 'all', notification: { alert: 'x' }, options: { F: '@' } },
  { platform: 'all', audience: { registration_id: ['@'] }, notification: { alert: 'x' } },
  { platform: ['@'], audience: 'all', notification: { alert: 'x' } },
  {
    platform: 'all',
    audience: 'all',
    notification: { alert: 'x' },
    sms_message: { delay_time: 0, temp_id: 2, temp_para: { k: '@' } },
  },
  { msg_id: '@', registration_ids: ['1a0018970a8b0fd6c0e'] },
  { tags: { add: ['@'] }, alias: 'a', mobile: '13800138000' },
  { registration_ids: { add: ['@'] } },
  { platform: 'android', registration_id: '@', alias: 'a', mobile: '13800138000' },
  { advance_ms: '@' },
  { status: '@', refuse_reason: 'r' },
  { path: '/v1/codes', code: 50009, times: '@' },
]

// Every field the surfaces read as a number, somewhere.
const NUMERIC_FIELDS = [
  'temp_id',
  'sign_id',
  'ttl',
  'voice_lang',
  'code',
  'mobile',
  'type',
  'status',
  'advance_ms',
  'delay_ms',
  'times',
  'msg_id',
  'sendno',
  'time_to_live',
  'override_msg_id',
  'big_push_duration',
  'classification',
  'apns_production',
  'delay_time',
  'signid',
  'builder_id',
  'badge',
  'limit',
  'F',
]

/** A shape with `raw` (JSON text, not a JSON value) spliced in where it says "@" (or as key F). */
function splice(shape: unknown, raw: string, field?: string): string {
  const text = JSON.stringify(shape)
  const named = field === undefined ? text : text.replaceAll('"F"', JSON.stringify(field))
  return named.replace('"@"', raw)
}

const nest = (depth: number, inner: string, kind: 'array' | 'object') =>
  kind === 'array'
    ? '['.repeat(depth) + inner + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + inner + '}'.repeat(depth)

const innerArb = fc.oneof(
  fc.constantFrom('1', '"13800138000"', 'null', '[]', '{}', '"1a0018970a8b0fd6c0e"', '18100000000000001'),
  fc.constantFrom(...INJECTION).map(s => JSON.stringify(s)),
)

/** One field nested deep (around the 1 000-level bound, and far past it) inside an ordinary body. */
export const deepFieldArb: fc.Arbitrary<RawBody> = fc
  .record({
    shape: fc.constantFrom(...SHAPES),
    depth: fc.constantFrom(2, 50, 998, 999, 1000, 1001, 3_300, 4_200, 9_000),
    kind: fc.constantFrom('array' as const, 'object' as const),
    inner: innerArb,
    field: fc.constantFrom(...NUMERIC_FIELDS, 'extras', 'alert'),
  })
  .map(({ shape, depth, kind, inner, field }) => ({
    contentType: 'application/json',
    body: splice(shape, nest(depth, inner, kind), field),
  }))

/** Integers as JSON text that no double holds exactly, and a few that no double holds at all. */
const bigNumber = fc.oneof(
  fc.bigInt({ min: 2n ** 53n + 1n, max: 10n ** 30n }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: -(2n ** 53n) - 1n }).map(String),
  fc.constantFrom(
    '18100000000000001',
    '18100000000000001999',
    '9007199254740993',
    '-9007199254740993',
    '1'.padEnd(400, '0'), // past the largest double: Infinity
    '1.8100000000000001e16',
    '1e400',
    '-0',
    '0.000000000000000000001',
  ),
)

/** Big integers in every numeric field, at the places ordinary bodies hold them. */
export const bigIntegerArb: fc.Arbitrary<RawBody> = fc
  .record({ shape: fc.constantFrom(...SHAPES), field: fc.constantFrom(...NUMERIC_FIELDS), n: bigNumber })
  .map(({ shape, field, n }) => ({ contentType: 'application/json', body: splice(shape, n, field) }))

/**
 * Complete requests (an honest Content-Length) whose multipart form ends early: before its
 * closing boundary (the last part a file for Java and .NET), or at any byte.
 */
export const unclosedFormArb: fc.Arbitrary<RawBody> = fc
  .record({
    client: fc.constantFrom(javaForm, dotnetForm, phpForm, pythonForm),
    images: fc.array(fc.constantFrom(PNG, JPEG, GIF, Buffer.from('not an image')), {
      minLength: 1,
      maxLength: 4,
    }),
    sign: fc.constantFrom('签名', 'Acme', '', '【】'),
    cut: fc.oneof(fc.constant(-1), fc.double({ min: 0, max: 1, noNaN: true })),
  })
  .map(({ client, images, sign, cut }) => {
    const form = client({ sign, type: '1', images: images.map((bytes, i) => ({ name: `f${i}.png`, bytes })) })
    const body = cut < 0 ? unclosed(form).body : form.body.subarray(0, Math.floor(form.body.length * cut))
    return { contentType: form.contentType, body }
  })

// Sweeps: every shape (and every numeric field) at least once per route, so a class never goes
// unvisited by chance; what goes inside is still drawn by fast-check from `seed`.

const json = (body: string): RawBody => ({ contentType: 'application/json', body })

/** Each shape with one field nested 999 (read), 1 001 and 9 000 levels deep (refused). */
export function deepFieldSweep(seed: number): RawBody[] {
  const inners = fc.sample(innerArb, { numRuns: 16, seed })
  return SHAPES.flatMap((shape, i) =>
    [999, 1001, 9_000].map((depth, j) =>
      json(
        splice(
          shape,
          nest(depth, inners[(i + j) % inners.length]!, (i + j) % 2 ? 'object' : 'array'),
          NUMERIC_FIELDS[i % NUMERIC_FIELDS.length],
        ),
      ),
    ),
  )
}

/** Each shape with a big number where it says "@", and every numeric field by name. */
export function bigIntegerSweep(seed: number): RawBody[] {
  const numbers = fc.sample(bigNumber, { numRuns: 32, seed })
  let k = 0
  return SHAPES.flatMap(shape =>
    JSON.stringify(shape).includes('"F"')
      ? NUMERIC_FIELDS.map(field => json(splice(shape, numbers[k++ % numbers.length]!, field)))
      : [json(splice(shape, numbers[k++ % numbers.length]!))],
  )
}

/** Each client's form cut before its closing boundary, and at two drawn bytes. */
export function unclosedFormSweep(seed: number): RawBody[] {
  const cuts = fc.sample(fc.double({ min: 0.05, max: 0.95, noNaN: true }), { numRuns: 8, seed })
  return [javaForm, dotnetForm, phpForm, pythonForm].flatMap((client, i) => {
    const form = client({ sign: '签名', type: '1', images: [{ name: 'a.png', bytes: PNG }] })
    const cutAt = (c: number) => form.body.subarray(0, Math.floor(form.body.length * c))
    return [unclosed(form).body, cutAt(cuts[2 * i]!), cutAt(cuts[2 * i + 1]!)].map(body => ({
      contentType: form.contentType,
      body,
    }))
  })
}
