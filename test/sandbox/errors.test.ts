import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxErrors } from '../../src/control/errors.js'
import type { ApiError } from '../../src/errors.js'
import { basic, call, createTestApp, defaultAuth } from '../helpers.js'
import { ANDROID_1 } from '../push/helpers.js'
import { readPage, section } from '../readme/pages.js'

// The control plane's own error table (src/control/errors.ts): every code documented in
// docs/control-plane.md, every one provoked by a test, the generic ones here, one row each.

const table = Object.values(sandboxErrors).map(make => (make as (why: string) => ApiError)('why'))

/** `| 90001 | 401 | … |` rows of the manual's table of control-plane errors. */
function documented(): Array<{ code: number; status: number }> {
  const table = section(readPage('docs/control-plane.md'), 'Errors of the control plane')
  return [...table.matchAll(/^\| `(9\d{4})` \| (\d{3}) \|/gm)].map(m => ({
    code: Number(m[1]),
    status: Number(m[2]),
  }))
}

describe('the control plane’s error table', () => {
  it('is the manual’s, code for code and status for status, in a range no vendor uses', () => {
    const ours = table.map(e => ({ code: e.code, status: e.status })).sort((a, b) => a.code - b.code)
    expect(documented()).toEqual(ours)
    for (const { code } of ours) expect(code).toBeGreaterThanOrEqual(90_000)
    expect(new Set(ours.map(e => e.code)).size).toBe(ours.length)
  })

  it('has every code provoked by some test', () => {
    const dir = new URL('../', import.meta.url).pathname
    const tests = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter(f => f.endsWith('.test.ts'))
      .map(f => readFileSync(join(dir, f), 'utf8'))
      .join('\n')
    for (const { code } of table) expect(tests, String(code)).toContain(String(code))
  })

  const json = { 'content-type': 'application/json' }
  it.each([
    ['no credentials', 401, 90001, 'GET', '/_sandbox/clock', {}, undefined],
    [
      'wrong credentials',
      401,
      90002,
      'GET',
      '/_sandbox/clock',
      { authorization: basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000') },
      undefined,
    ],
    ['an unknown path', 404, 90004, 'GET', '/_sandbox/nope', { authorization: defaultAuth }, undefined],
    ['another method', 405, 90005, 'PUT', '/_sandbox/clock', { authorization: defaultAuth, ...json }, '{}'],
    [
      'a body that is not an object',
      400,
      90010,
      'POST',
      '/_sandbox/clock',
      { authorization: defaultAuth, ...json },
      '[]',
    ],
    ['no body', 400, 90011, 'POST', '/_sandbox/clock', { authorization: defaultAuth }, undefined],
    [
      'a body over 1 MiB',
      413,
      90012,
      'POST',
      '/_sandbox/clock',
      { authorization: defaultAuth, ...json },
      `"${'x'.repeat(1_100_000)}"`,
    ],
    [
      'a form body',
      415,
      90013,
      'POST',
      '/_sandbox/clock',
      { authorization: defaultAuth, 'content-type': 'application/x-www-form-urlencoded' },
      'advance_ms=1',
    ],
    [
      'a field it cannot take',
      400,
      90020,
      'POST',
      '/_sandbox/clock',
      { authorization: defaultAuth, ...json },
      '{"advance_ms":"soon"}',
    ],
    [
      'an unknown temp_id',
      404,
      90041,
      'POST',
      '/_sandbox/sms/templates/99999/review',
      { authorization: defaultAuth, ...json },
      '{"status":1}',
    ],
    [
      'an unknown sign_id',
      404,
      90042,
      'POST',
      '/_sandbox/sms/signs/99999/review',
      { authorization: defaultAuth, ...json },
      '{"status":1}',
    ],
    [
      'an unknown registration_id',
      404,
      90043,
      'PATCH',
      '/_sandbox/push/devices/1a0000000000000000x',
      { authorization: defaultAuth, ...json },
      '{"online":true}',
    ],
    [
      'no code for the mobile',
      404,
      90044,
      'GET',
      '/_sandbox/sms/codes/latest?mobile=13800138000',
      { authorization: defaultAuth },
      undefined,
    ],
    [
      'a registration_id taken',
      409,
      90050,
      'POST',
      '/_sandbox/push/devices',
      { authorization: defaultAuth, ...json },
      `{"platform":"android","registration_id":"${ANDROID_1}"}`,
    ],
    [
      'a move backwards',
      409,
      90053,
      'POST',
      '/_sandbox/clock',
      { authorization: defaultAuth, ...json },
      '{"set":"2020-01-01T00:00:00Z"}',
    ],
  ] as const)('%s: %i %i', async (_what, status, code, method, url, headers, payload) => {
    const { app } = await createTestApp()
    const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) })
    expect({ status: res.statusCode, code: res.json().error.code }).toEqual({ status, code })
    const error = table.find(e => e.code === code)!
    expect(res.statusCode).toBe(error.status)
  })

  it('never answers a vendor code under /_sandbox: a device field the device API refuses', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android', tags: ['a b'] })
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: { code: 90020, message: `"tags": tag 'a b' is invalid` } },
    })
    const mobile = await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '123', content: 'hi' })
    expect(mobile.body.error).toEqual({
      code: 90020,
      message: '"mobile": must be a mainland China mobile number: 11 digits, perhaps after 86 or +86',
    })
  })
})
