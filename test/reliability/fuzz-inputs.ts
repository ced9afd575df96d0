import fc from 'fast-check'
import { basic, defaultAuth, newKey } from '../helpers.js'

// Generators of bad requests: what a confused client, a broken proxy or an attacker sends.

export const INJECTION = [
  "' OR '1'='1",
  '1; DROP TABLE messages; --',
  '1 UNION SELECT master_secret FROM apps',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  '\u0000',
  '$' + '{jndi:ldap://x}', // log4shell-style, in pieces so no linter takes it for a template
  '{{constructor.constructor("return process")()}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '😀👍🏽',
  '【极光】',
  '-1',
  '0',
  '1e309',
  '99999999999999999999999',
  'NaN',
  'null',
  'x'.repeat(5000),
]

const FIELDS = [
  'mobile',
  'temp_id',
  'temp_para',
  'sign_id',
  'code',
  'ttl',
  'voice_lang',
  'tag',
  'recipients',
  'send_time',
  'schedule_id',
  'msg_id',
  'platform',
  'audience',
  'notification',
  'message',
  'options',
  'cid',
  'registration_id',
  'alias',
  'tags',
  'advance_ms',
  'set',
  'limit',
  '__proto__',
  'constructor',
  'sign',
  'template',
  'type',
  'remark',
]

const scalar = fc.oneof(
  fc.constantFrom(...INJECTION),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e300),
)
const value = fc.oneof(
  { maxDepth: 3 },
  scalar,
  fc.jsonValue({ maxDepth: 4 }),
  fc.array(scalar, { maxLength: 5 }),
)
const object = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), value, { maxKeys: 8 })

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)
const MEGA = 1024 * 1024

/** Bodies, as the bytes that go on the wire. */
export const bodyArb: fc.Arbitrary<string | Buffer | undefined> = fc.oneof(
  fc.constant(undefined),
  object.map(o => JSON.stringify(o)),
  object.map(o => JSON.stringify(o)).map(s => s.slice(0, Math.max(1, s.length >> 1))), // truncated
  fc.jsonValue().map(v => JSON.stringify(v)),
  fc.string().map(s => s), // not JSON at all
  fc.uint8Array({ maxLength: 64 }).map(b => Buffer.from(b)),
  fc.constantFrom(
    nested(10_000, '[', ']'),
    `{"temp_para":${nested(5_000, '{"a":', '}').replace(/\{"a":\}/, '{"a":1}')}}`,
    `{"recipients":${nested(2_000, '[', ']')}}`,
    `{"mobile":"${'1'.repeat(MEGA + 10)}"}`, // over the body limit
    `{"recipients":[${Array.from({ length: 1001 }, (_, i) => `{"mobile":"1390000${String(i).padStart(4, '0')}"}`).join(',')}]}`,
    '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
    '\uFEFF{"mobile":"13800138000","temp_id":1}',
    '',
    '   ',
    'null',
    '[]',
    '"string"',
    '{"mobile":13800138000,"temp_id":"1"}',
  ),
  fc.constantFrom(
    Buffer.concat([
      Buffer.from('{"mobile":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1]),
      Buffer.from('"}'),
    ]),
    Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate in UTF-8
  ),
)

export const contentTypeArb = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset:utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'application/octet-stream',
  ';;;',
  'application/json; charset=latin1',
)

const other = { key: newKey('fuzzother'), secret: newKey('s') }
export const authArb = fc.constantFrom(
  defaultAuth,
  defaultAuth,
  undefined,
  basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000'),
  basic(other.key, other.secret),
  basic('short', 'short'),
  'Basic !!!notbase64!!!',
  `Basic ${Buffer.from('nocolon').toString('base64')}`,
  'Bearer abc',
  'Basic',
  `Basic ${'A'.repeat(6000)}`,
)

const odd = fc.oneof(
  fc.constantFrom(...INJECTION).map(encodeURIComponent),
  fc.constantFrom('%ZZ', '%', '..', '.', '%2F', '%00', '%C0%AF', '%E4%BD', '1%20OR%201', ''),
  fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
)

/** A concrete path for a route pattern: every `:param` an odd id, sometimes with odd decorations. */
export function pathArb(pattern: string): fc.Arbitrary<string> {
  const names = pattern.match(/:[^/]+/g) ?? []
  return fc
    .tuple(
      fc.array(odd, { minLength: names.length, maxLength: names.length }),
      fc.constantFrom(
        '',
        '',
        '/',
        '//',
        '/extra',
        '/..',
        '?msg_id=%27--&mobile[]=1&limit=-5',
        '?limit=1e9&mobile=%00',
        // A key given twice arrives as an array.
        '?mobile=1&mobile=2&msg_id=1&msg_id=2&alias=a&alias=b&platform=ios&platform=android',
      ),
    )
    .map(([ids, suffix]) => {
      let i = 0
      return pattern.replace(/:[^/]+/g, () => ids[i++] ?? '') + suffix
    })
}
