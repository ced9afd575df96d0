import { describe, expect, it } from 'vitest'
import { APP_KEY, basic, call, createTestApp, newKey } from '../helpers.js'
import { pushBody, rate } from './helpers.js'

describe('rate limits (push-service.md §8)', () => {
  it('headers count down per group and reset when the clock moves a minute', async () => {
    const { app, clock } = await createTestApp()
    expect(rate((await call(app, 'POST', '/v3/push', pushBody())).headers)).toEqual(['600', '599', '60'])
    clock.advance(20_000)
    expect(rate((await call(app, 'POST', '/v3/push/validate', pushBody())).headers)).toEqual([
      '600',
      '598',
      '40',
    ])
    expect(rate((await call(app, 'GET', '/v3/tags')).headers)).toEqual(['600', '599', '60'])
    expect(rate((await call(app, 'GET', '/v3/received')).headers)).toEqual(['2400', '2399', '60'])
    clock.advance(40_000)
    expect(rate((await call(app, 'GET', '/v3/push/cid')).headers)).toEqual(['600', '599', '60'])
  })

  it("the app's own clock offset moves its window", async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/v3/push/cid')
    expect(rate((await call(app, 'GET', '/v3/push/cid')).headers)[1]).toBe('598')
    app.store.apps.setClockOffset(APP_KEY, 61_000)
    expect(rate((await call(app, 'GET', '/v3/push/cid')).headers)[1]).toBe('599')
  })

  it('over the limit → 429 2002, with the headers; a per-app limit from settings.rate_limits', async () => {
    const { app, clock } = await createTestApp()
    const a = app.store.apps.get(APP_KEY)!
    app.store.apps.updateSettings({ ...a, settings: { rate_limits: { device: 2 } } })
    await call(app, 'GET', '/v3/tags')
    expect((await call(app, 'GET', '/v3/tags')).status).toBe(200)
    const over = await call(app, 'GET', '/v3/tags')
    expect(over.status).toBe(429)
    expect(over.body).toEqual({ error: { code: 2002, message: 'Rate limit exceeded' } })
    expect(rate(over.headers)).toEqual(['2', '0', '60'])
    expect((await call(app, 'GET', '/v3/push/cid')).status).toBe(200) // other groups are not affected
    clock.advance(60_000)
    expect((await call(app, 'GET', '/v3/tags')).status).toBe(200)
  })

  it('errors carry the headers too', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', {}, { authorization: basic(APP_KEY, 'x'.repeat(24)) })
    expect(res.status).toBe(401)
    expect(rate(res.headers)).toEqual(['600', '599', '60'])
  })
})

describe('broadcast limit (2008)', () => {
  it('the 11th broadcast of a Beijing day is 403 2008; other audiences pass; the next day resets', async () => {
    const { app, clock } = await createTestApp()
    clock.set(Date.parse('2026-03-01T10:00:00+08:00'))
    for (let i = 0; i < 10; i++)
      expect((await call(app, 'POST', '/v3/push', pushBody({ audience: 'all' }))).status).toBe(200)
    const eleventh = await call(app, 'POST', '/v3/push', pushBody({ audience: 'all' }))
    expect(eleventh.status).toBe(403)
    expect(eleventh.body.error.code).toBe(2008)
    expect(
      (await call(app, 'POST', '/v3/push/validate', pushBody({ audience: 'all' }))).body.error.code,
    ).toBe(2008)
    expect((await call(app, 'POST', '/v3/push', pushBody())).status).toBe(200)
    clock.set(Date.parse('2026-03-01T23:59:59+08:00'))
    expect((await call(app, 'POST', '/v3/push', pushBody({ audience: 'all' }))).status).toBe(403)
    clock.set(Date.parse('2026-03-02T00:00:00+08:00'))
    expect((await call(app, 'POST', '/v3/push', pushBody({ audience: 'all' }))).status).toBe(200)
  })
})

describe('standing and credentials', () => {
  async function withApp(change: Record<string, unknown>) {
    const t = await createTestApp()
    const a = t.app.store.apps.get(APP_KEY)!
    t.app.store.apps.updateSettings({ ...a, ...change })
    return t
  }

  it.each([
    ['POST', '/v3/push'],
    ['GET', '/v3/devices/1a0018970a8b0fd6c0e'],
    ['GET', '/v3/received'],
    ['GET', '/v3/push/cid'],
  ] as const)('a blacklisted appKey → 403 2003 on %s %s', async (method, url) => {
    const { app } = await withApp({ blacklisted: true })
    const res = await call(app, method, url, method === 'POST' ? pushBody() : undefined)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 2003, message: 'The appKey is in black list.' } })
  })

  it('a frozen developer account → 403 2007 (no permission)', async () => {
    const { app } = await createTestApp()
    const dev = app.store.apps.developer(app.store.apps.get(APP_KEY)!.devKey)!
    app.store.apps.saveDeveloper({ ...dev, frozen: true })
    const res = await call(app, 'GET', '/v3/tags')
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe(2007)
  })

  it('an IP not on the whitelist → 403 2004', async () => {
    const { app } = await withApp({ ipWhitelist: ['10.1.2.3'] })
    const res = await call(app, 'POST', '/v3/push', pushBody())
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe(2004)
  })

  it.each([
    ['/v3/push', 'POST', undefined, 401, 1004],
    ['/v3/push', 'POST', basic(APP_KEY, 'wrongsecret0000000000000'), 401, 1004],
    ['/v3/push', 'POST', basic('bad-key', 'x'), 400, 1008],
    ['/v3/devices/1a0018970a8b0fd6c0e', 'GET', undefined, 401, 7001],
    ['/v3/devices/1a0018970a8b0fd6c0e', 'GET', basic(APP_KEY, 'wrongsecret0000000000000'), 401, 7004],
    ['/v3/tags', 'GET', basic('bad-key', 'x'), 400, 7008],
    ['/v3/received', 'GET', undefined, 401, 3001],
    ['/v3/received', 'GET', basic(APP_KEY, 'wrongsecret0000000000000'), 401, 3001],
  ] as const)('%s %s with %s → %i %i', async (url, method, auth, status, code) => {
    const { app } = await createTestApp()
    const res = await app.inject({
      method,
      url,
      headers: auth ? { authorization: auth } : {},
      payload: method === 'POST' ? pushBody() : undefined,
    })
    expect(res.statusCode).toBe(status)
    expect(res.json().error.code).toBe(code)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
  })

  it('an unknown well-formed appKey is provisioned with the default devices', async () => {
    const { app } = await createTestApp()
    const key = newKey()
    const res = await call(app, 'POST', '/v3/push', pushBody(), { authorization: basic(key, newKey('s')) })
    expect(res.status).toBe(200)
  })

  it('GET /v3/push → 405 1001; unknown path → 404', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v3/push')
    expect(res.status).toBe(405)
    expect(res.body.error.code).toBe(1001)
    expect((await call(app, 'GET', '/v3/nothing')).status).toBe(404)
  })
})
