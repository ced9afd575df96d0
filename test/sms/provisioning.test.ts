import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { createLoggedApp } from '../log-capture.js'

// Auto-provisioning (docs/configuration.md "Auto-provisioning") within its caps: apps in the
// database (AUTO_PROVISION_MAX_APPS) and new apps per client address per minute and per hour
// (AUTO_PROVISION_PER_MINUTE, AUTO_PROVISION_PER_HOUR). Beyond any, the unknown appKey stays
// unknown: the surface's authentication failure, saying why, and one log line a minute.

const get = (app: SandboxApp, url: string, authorization: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'GET', url, headers: { authorization }, remoteAddress })
const fresh = () => basic(newKey('p'), newKey('s'))

describe('auto-provisioning caps', () => {
  it('AUTO_PROVISION_MAX_APPS: no new app once the database holds that many; known apps go on', async () => {
    const { app, lines } = await createLoggedApp({ autoProvisionMaxApps: 3 })
    // The default app is one of the three.
    const [first, second] = [fresh(), fresh()]
    expect((await get(app, '/v1/accounts/app', first)).statusCode).toBe(200)
    expect((await get(app, '/v3/tags', second)).statusCode).toBe(200)
    const reason =
      'auto-provisioning refused: the sandbox already holds 3 apps, its limit (AUTO_PROVISION_MAX_APPS)'
    const sms = await get(app, '/v1/accounts/app', fresh())
    expect(sms.statusCode).toBe(401)
    expect(sms.json()).toEqual({ error: { code: 50002, message: `auth failed: ${reason}` } })
    const push = await get(app, '/v3/push/cid', fresh())
    expect(push.statusCode).toBe(401)
    expect(push.json()).toEqual({ error: { code: 1004, message: `Authen failed: ${reason}` } })
    expect((await get(app, '/v3/tags', fresh())).json().error.code).toBe(7004)
    expect((await get(app, '/_sandbox/clock', fresh())).json().error.code).toBe(90002)

    for (const known of [first, second])
      expect((await get(app, '/v1/accounts/app', known)).statusCode).toBe(200)
    expect(app.store.apps.count()).toBe(3)
    // One line, however many refusals.
    const logged = lines().filter(l => typeof l.msg === 'string' && l.msg.includes('AUTO_PROVISION_MAX_APPS'))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ level: 40, msg: reason, client: '127.0.0.1' })
  })

  it('AUTO_PROVISION_PER_MINUTE: per client address, on the process clock', async () => {
    const { app, clock, lines } = await createLoggedApp({ autoProvisionPerMinute: 2 })
    const mine = [fresh(), fresh()]
    for (const auth of mine)
      expect((await get(app, '/v1/accounts/app', auth, '10.0.0.1')).statusCode).toBe(200)
    clock.advance(15_000)
    const refused = await get(app, '/v1/accounts/app', fresh(), '10.0.0.1')
    expect(refused.statusCode).toBe(401)
    expect(refused.json().error).toEqual({
      code: 50002,
      message:
        'auth failed: auto-provisioning refused: 10.0.0.1 may create 2 new apps a minute ' +
        '(AUTO_PROVISION_PER_MINUTE); try again in 45 s',
    })
    expect((await get(app, '/v3/received', fresh(), '10.0.0.1')).json().error.code).toBe(3001)
    // Its apps keep working; another address is not affected.
    for (const auth of mine)
      expect((await get(app, '/v1/accounts/app', auth, '10.0.0.1')).statusCode).toBe(200)
    expect((await get(app, '/v1/accounts/app', fresh(), '10.0.0.2')).statusCode).toBe(200)
    expect(lines().filter(l => l.msg?.includes('AUTO_PROVISION_PER_MINUTE'))).toHaveLength(1)

    clock.advance(45_000)
    expect((await get(app, '/v1/accounts/app', fresh(), '10.0.0.1')).statusCode).toBe(200)
  })

  it('AUTO_PROVISION_PER_HOUR: ten addresses cannot fill AUTO_PROVISION_MAX_APPS in a burst; another address still gets its app (issue 33)', async () => {
    const { app, clock, lines } = await createLoggedApp({ autoProvisionPerHour: 5, autoProvisionMaxApps: 60 })
    const statuses: number[] = []
    for (let a = 1; a <= 10; a++)
      for (let i = 0; i < 10; i++)
        statuses.push((await get(app, '/v1/accounts/app', fresh(), `10.0.1.${a}`)).statusCode)
    expect(statuses.filter(s => s === 200)).toHaveLength(50)
    expect(statuses.filter(s => s === 401)).toHaveLength(50)
    const refused = await get(app, '/v3/push/cid', fresh(), '10.0.1.1')
    expect(refused.json().error).toEqual({
      code: 1004,
      message:
        'Authen failed: auto-provisioning refused: 10.0.1.1 may create 5 new apps an hour (AUTO_PROVISION_PER_HOUR); try again in 3600 s',
    })
    // The victim, from an address of its own, is provisioned: the cap was not reached.
    expect((await get(app, '/v1/accounts/app', fresh(), '10.0.2.1')).statusCode).toBe(200)
    expect(lines().filter(l => l.msg?.includes('AUTO_PROVISION_PER_HOUR'))).toHaveLength(10)
    clock.advance(3600_000)
    expect((await get(app, '/v1/accounts/app', fresh(), '10.0.1.1')).statusCode).toBe(200)
  })

  it('by default, 1000 new apps a minute per address: a CI run with a fresh app per test file', {
    timeout: 60_000,
  }, async () => {
    const { app } = await createTestApp()
    for (let i = 0; i < 1000; i++) expect((await get(app, '/v1/accounts/app', fresh())).statusCode).toBe(200)
    const over = await get(app, '/v1/accounts/app', fresh())
    expect(over.statusCode).toBe(401)
    expect(over.json().error.message).toMatch(
      /may create 1000 new apps a minute \(AUTO_PROVISION_PER_MINUTE\)/,
    )
  })
})

describe('the developer account of an auto-provisioned app', () => {
  const reversed = (s: string) => [...s].reverse().join('')

  it('is its own: the appKey and masterSecret reversed', async () => {
    const { app } = await createTestApp()
    const [appKey, secret] = [newKey('mine'), newKey('s')]
    expect(
      (await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: basic(appKey, secret) }))
        .status,
    ).toBe(200)
    const dev = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic(reversed(appKey), reversed(secret)),
    })
    expect(dev).toMatchObject({
      status: 200,
      body: { dev_balance: 100_000, dev_voice: 10_000, dev_industry: 100_000, dev_market: 100_000 },
    })
    // The app's pair is not the developer's, and knowing the appKey alone opens nothing.
    for (const [user, pass] of [
      [appKey, secret],
      [reversed(appKey), newKey('guess')],
      [reversed(appKey), secret],
    ] as const) {
      const res = await call(app, 'GET', '/v1/accounts/dev', undefined, { authorization: basic(user, pass) })
      expect(res.status, `${user}:${pass}`).toBe(401)
    }
    // Nor is the developer's pair taken for a new app's.
    const asApp = await call(app, 'GET', '/v1/accounts/app', undefined, {
      authorization: basic(reversed(appKey), reversed(secret)),
    })
    expect(asApp.status).toBe(401)
    expect(app.store.apps.get(reversed(appKey))).toBeUndefined()
  })

  it("pays for its app only: one tenant's spending leaves the others' developers whole", async () => {
    const { app } = await createTestApp()
    const [a, b] = [newKey('spender'), newKey('bystander')]
    const secret = newKey('s')
    const as = (key: string) => ({ authorization: basic(key, secret) })
    const devOf = async (key: string) =>
      (
        await call(app, 'GET', '/v1/accounts/dev', undefined, {
          authorization: basic(reversed(key), reversed(secret)),
        })
      ).body
    for (const key of [a, b]) await call(app, 'GET', '/v1/accounts/app', undefined, as(key))
    // Empty A's own buckets for codes (industry, then the all-type one): its developer pays next.
    const spender = app.store.apps.get(a)!
    expect(app.store.apps.charge(spender, 'industry', 10_000)).toBe(true)
    expect(app.store.apps.charge(spender, 'industry', 10_000)).toBe(true)
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, as(a))).body).toMatchObject({
      app_balance: 0,
      app_industry: 0,
    })
    expect((await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, as(a))).status).toBe(
      200,
    )

    expect((await devOf(a)).dev_industry).toBe(99_999)
    expect((await devOf(b)).dev_industry).toBe(100_000)
    const shared = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic('sandboxdevkey00000000001', 'sandboxdevsecret00000001'),
    })
    expect(shared.body.dev_industry).toBe(100_000)
  })

  it('an appKey whose developer would be an existing one is not provisioned', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v1/accounts/app', undefined, {
      authorization: basic(reversed('sandboxdevkey00000000001'), newKey('s')),
    })
    expect(res.status).toBe(401)
    const dev = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic('sandboxdevkey00000000001', 'sandboxdevsecret00000001'),
    })
    expect(dev.status).toBe(200)
  })
})
