import type { FastifyRequest } from 'fastify'
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../src/errors.js'
import type { Field } from '../../src/http/reads.js'
import * as deviceFields from '../../src/push/device/fields.js'
import * as audience from '../../src/push/send/audience.js'
import * as callbacks from '../../src/push/send/callback.js'
import * as notification from '../../src/push/send/notification.js'
import * as options from '../../src/push/send/options.js'
import * as smsFields from '../../src/sms/fields.js'

// A field declares what a wrong value answers (http/reads.ts), and the document lists it for
// every route that reads the field. The declaration is beside the reader, but nothing else ties
// them: here every field reads a spread of values a client might send, and every refusal must be
// one of the codes it declares (the vendor's messages vary with the value; their codes do not).

const req = {
  tenant: { now: () => 0, app: { appKey: '7d431e42dfa6a6d693ac2d04' } },
} as unknown as FastifyRequest

const isField = (v: unknown): v is Field<unknown> =>
  typeof v === 'object' &&
  v !== null &&
  'read' in v &&
  'schema' in v &&
  Array.isArray((v as Field<unknown>).errors)

const fields: Array<[string, Field<unknown>]> = [
  ...Object.entries({ ...smsFields, ttl: smsFields.ttl(), sendTime: smsFields.sendTime('Asia/Shanghai') }),
  ...Object.entries(deviceFields),
  ...Object.entries(audience),
  ...Object.entries(notification),
  ...Object.entries(options),
  ...Object.entries(callbacks),
].filter((entry): entry is [string, Field<unknown>] => isField(entry[1]))

const big = 'x'.repeat(5000)
const values: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  0,
  -1,
  1,
  1.5,
  2 ** 53 + 2,
  'x',
  'a b',
  '13800138000',
  '+8613800138000',
  '2030-01-01 00:00:00',
  true,
  [],
  [1],
  ['x'],
  ['android', 'ios'],
  [{}],
  {},
  { a: 1 },
  { a: {} },
  { a: [] },
  { alert: 'hi' },
  { alert: 5 },
  { android: {} },
  { hmos: {} },
  { ios: { alert: big } },
  { ios: { content_available: true, alert: 'a' } },
  { msg_content: 5 },
  { ios: {} },
  { ios: { event: 'start', 'content-state': {} } },
  { delay_time: -1 },
  { delay_time: 0 },
  { delay_time: 0, temp_id: 0 },
  { time_to_live: -1 },
  { sendno: 'x' },
  { url: 'ftp://x' },
  { type: 99 },
  { tag: [''] },
  { tag: ['a b'] },
  { registration_id: ['x_y'] },
  { registration_id: Array.from({ length: 1001 }, (_, i) => `r${i}`) },
  { nope: ['x'] },
  { add: 'x' },
  { add: ['a b'] },
  { add: Array.from({ length: 101 }, (_, i) => `t${i}`) },
  big,
]

describe('a field refuses only with the codes it declares', () => {
  it.each(fields)('%s', (_, f) => {
    const declared = new Set(f.errors.map(e => `${e.status} ${e.code}`))
    expect(declared.size, 'a field that refuses nothing declares nothing').toBeGreaterThanOrEqual(0)
    const undeclared: string[] = []
    for (const value of values) {
      try {
        f.read(value, req)
      } catch (err) {
        if (!(err instanceof ApiError)) throw err
        if (!declared.has(`${err.status} ${err.code}`))
          undeclared.push(`${JSON.stringify(value)?.slice(0, 40)} → ${err.status} ${err.code} ${err.message}`)
      }
    }
    expect(undeclared).toEqual([])
  })
})
