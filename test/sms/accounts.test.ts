import { describe, expect, it } from 'vitest'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { basic, call, createTestApp, defaultAuth } from '../helpers.js'
import { devCredentials, envelope, MOBILE, seededApp } from './support.js'

// GET /v1/accounts/app (appKey:masterSecret) and GET /v1/accounts/dev (devKey:devSecret),
// jsms-api.md §2.7.

const devAuth = basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET)

describe('GET /v1/accounts/app', () => {
  it("answers the app's four balances and follows successful sends only", async () => {
    const { app } = await createTestApp()
    const before = await call(app, 'GET', '/v1/accounts/app')
    expect(before).toMatchObject({
      status: 200,
      body: { app_balance: 10_000, app_voice: 1_000, app_industry: 10_000, app_market: 10_000 },
    })
    await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    await call(app, 'POST', '/v1/codes', { mobile: '123', temp_id: 1 })
    await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE })
    const after = await call(app, 'GET', '/v1/accounts/app')
    expect(after.body).toEqual({
      app_balance: 10_000,
      app_voice: 999,
      app_industry: 9_999,
      app_market: 10_000,
    })
  })

  it('refuses the developer credentials', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: devAuth })
    expect(res).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
  })
})

describe('GET /v1/accounts/dev', () => {
  it("answers the developer's four balances with devKey:devSecret", async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v1/accounts/dev', undefined, { authorization: devAuth })
    expect(res).toMatchObject({
      status: 200,
      body: { dev_balance: 100_000, dev_voice: 10_000, dev_industry: 100_000, dev_market: 100_000 },
    })
  })

  it('refuses app credentials, a wrong devSecret and no credentials', async () => {
    const { app } = await createTestApp()
    const asApp = await call(app, 'GET', '/v1/accounts/dev', undefined, { authorization: defaultAuth })
    expect(asApp).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
    const wrong = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic(DEFAULT_DEV_KEY, 'x'.repeat(24)),
    })
    expect(wrong).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
    const none = await app.inject({ method: 'GET', url: '/v1/accounts/dev' })
    expect(none.statusCode).toBe(400)
    expect(none.json()).toEqual(envelope(50001, 'missing auth'))
  })

  it('refuses a frozen developer with 50301', async () => {
    const { app } = await seededApp()
    const { devKey, secret } = devCredentials('frozen')
    const res = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic(devKey, secret),
    })
    expect(res).toMatchObject({ status: 403, body: envelope(50301, 'invalid account') })
  })
})
