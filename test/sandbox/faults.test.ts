import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'

const notification = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'F1', days: '1' } }

describe('POST /_sandbox/faults', () => {
  it('answers the next matching request with the documented error, stores nothing, then recovers', async () => {
    const { app } = await createTestApp()
    const armed = await call(app, 'POST', '/_sandbox/faults', {
      method: 'POST',
      path: '/v1/messages',
      code: 50019,
    })
    expect(armed.status).toBe(200)
    expect(armed.body).toMatchObject({ code: 50019, status: 500, message: 'server error', remaining: 1 })

    const failed = await call(app, 'POST', '/v1/messages', notification)
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ error: { code: 50019, message: 'server error' } })
    expect((await call(app, 'GET', '/_sandbox/sms/messages')).body.messages).toEqual([])
    expect((await call(app, 'GET', '/v1/accounts/app')).body.app_industry).toBe(10_000)

    const ok = await call(app, 'POST', '/v1/messages', notification)
    expect(ok.status).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults).toEqual([])
  })

  it('matches route patterns, counts `times`, and speaks each surface’s envelope', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/_sandbox/faults', { path: '/v1/codes/:msg_id/valid', code: 50010, times: 2 })
    for (const id of ['1', '2']) {
      const res = await call(app, 'POST', `/v1/codes/${id}/valid`, { code: '123456' })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ is_valid: false, error: { code: 50010, message: 'invalid code' } })
    }
    expect((await call(app, 'POST', '/v1/codes/3/valid', { code: '123456' })).body.error.code).toBe(50026)

    await call(app, 'POST', '/_sandbox/faults', { path: '/v3/push', code: 2002 })
    const limited = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'hi' },
    })
    expect(limited.status).toBe(429)
    expect(limited.body.error.code).toBe(2002)
    expect(limited.headers['x-rate-limit-limit']).toBeDefined()
  })

  it('an armed 2002 says what a real one says: X-Rate-Limit-Remaining 0 and the window’s real Reset', async () => {
    const { app, clock } = await createTestApp()
    const push = { platform: 'all', audience: 'all', notification: { alert: 'hi' } }
    await call(app, 'POST', '/v3/push/validate', push)
    clock.advance(15_000)
    await call(app, 'POST', '/_sandbox/faults', { path: '/v3/push', code: 2002 })
    const limited = await call(app, 'POST', '/v3/push', push)
    expect(limited.status).toBe(429)
    // The clients back off on these (jiguang-sdk-java ApiErrorException.setResponseHeaders reads
    // all three; jpush-api-java-client's RateLimitInfo): 599 would tell them to retry at once.
    const rate = ['limit', 'remaining', 'reset'].map(h => limited.headers[`x-rate-limit-${h}`])
    expect(rate).toEqual(['600', '0', '45'])
    const next = await call(app, 'POST', '/v3/push', push)
    expect(next.headers['x-rate-limit-remaining']).toBe('597')
  })

  it('undocumented codes need a status; custom messages are kept', async () => {
    const { app } = await createTestApp()
    const refused = await call(app, 'POST', '/_sandbox/faults', { path: '*', code: 59999 })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toEqual({
      code: 90020,
      message: '"status": code 59999 is not documented: give its "status"',
    })
    await call(app, 'POST', '/_sandbox/faults', { code: 59999, status: 503, message: 'carrier down' })
    const res = await call(app, 'GET', '/v1/accounts/app')
    expect(res.status).toBe(503)
    expect(res.body).toEqual({ error: { code: 59999, message: 'carrier down' } })
  })

  it('refuses what it cannot arm: 400 90020', async () => {
    const { app } = await createTestApp()
    for (const body of [
      {},
      { code: 'x' },
      { path: '/_sandbox/clock', code: 50019 },
      { code: 50019, times: 0 },
      { delay_ms: -1 },
    ]) {
      const res = await call(app, 'POST', '/_sandbox/faults', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.error.code).toBe(90020)
    }
  })

  it('belongs to the app that armed it; DELETE disarms', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/_sandbox/faults', { code: 50019, times: 5 })
    const other = { authorization: basic(newKey('a'), newKey('s')) }
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, other)).status).toBe(200)
    expect((await call(app, 'DELETE', '/_sandbox/faults')).body).toEqual({ cleared: 1 })
    expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
  })

  it('caps what one app can arm: 100 faults, a message of 1024 characters, a path of 256', async () => {
    const { app } = await createTestApp()
    const refusal = (res: { status: number; body: { error?: { code: number } } }) => ({
      status: res.status,
      code: res.body.error?.code,
    })
    const long = await call(app, 'POST', '/_sandbox/faults', { code: 50019, message: 'm'.repeat(1025) })
    expect(refusal(long)).toEqual({ status: 400, code: 90020 })
    expect(long.body.error.message).toBe('"message": must be at most 1024 characters')
    const farPath = await call(app, 'POST', '/_sandbox/faults', {
      code: 50019,
      path: `/v1/${'x'.repeat(253)}`,
    })
    expect(refusal(farPath)).toEqual({ status: 400, code: 90020 })
    const method = await call(app, 'POST', '/_sandbox/faults', { code: 50019, method: 'x'.repeat(5000) })
    expect(refusal(method)).toEqual({ status: 400, code: 90020 })
    // 256 characters, of a route that exists: /v1/codes/:msg_id/valid.
    const path = `/v1/codes/${'9'.repeat(240)}/valid`
    const atLimit = { code: 50019, message: 'm'.repeat(1024), path, method: 'post' }
    for (let i = 0; i < 100; i++)
      expect((await call(app, 'POST', '/_sandbox/faults', atLimit)).status).toBe(200)
    const over = await call(app, 'POST', '/_sandbox/faults', { code: 50019 })
    expect(refusal(over)).toEqual({ status: 409, code: 90054 })
    expect(over.body.error.message).toBe(
      'at most 100 faults may be armed at once: DELETE /_sandbox/faults first',
    )
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults).toHaveLength(100)
    // Per app: another tenant arms its own.
    const other = { authorization: basic(newKey('a'), newKey('s')) }
    expect((await call(app, 'POST', '/_sandbox/faults', { code: 50019 }, other)).status).toBe(200)
    expect((await call(app, 'DELETE', '/_sandbox/faults')).body).toEqual({ cleared: 100 })
    expect((await call(app, 'POST', '/_sandbox/faults', { code: 50019 })).status).toBe(200)
  })

  it('a delay alone holds the request, then lets it through', async () => {
    const { app } = await createTestApp()
    const armed = await call(app, 'POST', '/_sandbox/faults', { path: '/v1/accounts/app', delay_ms: 5 })
    expect(armed.body).toMatchObject({ code: null, delay_ms: 5, remaining: 1 })
    expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults).toEqual([])
  })
})
