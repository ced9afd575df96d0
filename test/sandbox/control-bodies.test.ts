import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

// The control plane refuses a body that is not a JSON object with 400 90010, whatever is wrong with
// it, in its own table (src/control/errors.ts): never a vendor's code or the seed's 403.

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
    it.each(NOT_OBJECTS)(`POST ${route} with %s: 400 90010`, async (_what, raw) => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', route, raw)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 90010, message: 'the body must be a JSON object' } },
      })
    })
  }

  it('is a 400 like the clock’s other bad bodies, and the clock has not moved', async () => {
    const { app } = await createTestApp()
    const unreadable = await call(app, 'POST', '/_sandbox/clock', { set: 'tomorrow' })
    const array = await call(app, 'POST', '/_sandbox/clock', [])
    expect(array.status).toBe(unreadable.status)
    expect([array.body.error.code, unreadable.body.error.code]).toEqual([90010, 90020])
    expect((await call(app, 'GET', '/_sandbox/clock')).body.offset_ms).toBe(0)
    // …while on /v1 the seed gives 50007 the status 403, and it stays so.
    const v1 = await call(app, 'POST', '/v1/messages', '[]')
    expect({ status: v1.status, body: v1.body }).toEqual({
      status: 403,
      body: { error: { code: 50007, message: 'invalid body' } },
    })
  })
})
