import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

// Issue 29, point 10: a wrong method is refused before the body is read (a PUT whose body is not
// JSON, or over the limit, is still the wrong method), on every /v3 host and the other surfaces;
// and JPush's 1001 "Only support HTTP POST method" is said only where POST is what the path takes.

const BAD = '{not json'
const HUGE = `{"x":"${'x'.repeat(2 * 1024 * 1024)}"}`

describe('the method before the body', () => {
  it.each([
    ['PUT', '/v3/push', 1001],
    ['PATCH', '/v3/push/validate', 1001],
    ['PUT', '/v3/devices/1a0018970af5cf52c6e', 7002],
    ['PUT', '/v3/device/1a0018970af5cf52c6e', 7002],
    ['PUT', '/v3/received', 3002],
    ['PUT', '/v3/report/received', 3002],
    ['PATCH', '/v3/schedules', 8100],
    ['PUT', '/v1/messages', 50018],
  ] as const)('%s %s with a bad or oversized body: 405 %i', async (method, url, code) => {
    const { app } = await createTestApp()
    for (const body of [BAD, HUGE]) {
      const res = await call(app, method, url, body)
      expect([res.status, res.body.error.code]).toEqual([405, code])
    }
  })

  it('without credentials too: the method is refused first', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', '/v3/push', BAD, { authorization: 'Basic eHg6eXk=' })
    expect([res.status, res.body]).toEqual([
      405,
      { error: { code: 1001, message: 'Only support HTTP POST method' } },
    ])
  })
})

describe("1001's message names what the path takes", () => {
  it.each([
    ['GET', '/v3/push', 'Only support HTTP POST method'],
    ['PUT', '/v3/push/validate', 'Only support HTTP POST method'],
    ['POST', '/v3/push/quota', 'Only support HTTP GET method'],
    ['GET', '/v3/push/18100000000000001', 'Only support HTTP DELETE method'],
    ['PUT', '/v3/files/abc', 'Only support HTTP GET or DELETE method'],
  ] as const)('%s %s: %s', async (method, url, message) => {
    const { app } = await createTestApp()
    const res = await call(app, method, url, BAD)
    expect([res.status, res.body]).toEqual([405, { error: { code: 1001, message } }])
  })
})
