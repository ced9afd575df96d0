import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

// The control plane refuses a body it cannot take with 400 50007 and the reason, whatever is wrong
// with it: the clock answered `[]` (and unparsable JSON) 403, the seed's status for the vendor's
// own endpoints, while every other bad clock body was 400.

const ROUTES = [
  '/_sandbox/clock',
  '/_sandbox/sms/templates/1/review',
  '/_sandbox/sms/signs/1/review',
  '/_sandbox/sms/replies',
  '/_sandbox/faults',
]
const NOT_OBJECTS: Array<[string, string]> = [
  ['an array', '[]'],
  ['an array of one move', '[{"advance_ms":1}]'],
  ['a JSON string', '"advance_ms"'],
  ['a number', '42'],
  ['true', 'true'],
  ['unparsable JSON', '{"advance_ms":'],
]

describe('a control-plane body that is not a JSON object', () => {
  for (const route of ROUTES) {
    it.each(NOT_OBJECTS)(`POST ${route} with %s: 400 50007`, async (_what, raw) => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', route, raw)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 50007, message: 'invalid body: the body must be a JSON object' } },
      })
    })
  }

  it('is the same 400 as the clock’s other refusals, and the clock has not moved', async () => {
    const { app } = await createTestApp()
    const backwards = await call(app, 'POST', '/_sandbox/clock', { advance_ms: -1 })
    const array = await call(app, 'POST', '/_sandbox/clock', [])
    expect(array.status).toBe(backwards.status)
    expect(array.body.error.code).toBe(backwards.body.error.code)
    expect((await call(app, 'GET', '/_sandbox/clock')).body.offset_ms).toBe(0)
    // …while on /v1 the seed gives 50007 the status 403, and it stays so.
    const v1 = await call(app, 'POST', '/v1/messages', '[]')
    expect({ status: v1.status, body: v1.body }).toEqual({
      status: 403,
      body: { error: { code: 50007, message: 'invalid body' } },
    })
  })
})
