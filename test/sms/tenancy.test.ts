import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { as, envelope, MOBILE, seeded, seededApp } from './support.js'

// Each appKey is an isolated tenant; unknown well-formed credentials create one with the
// default fixtures unless AUTO_PROVISION=false (issue 2, "Tenants and credentials").

const code = { mobile: MOBILE, temp_id: 1 }

describe('auto-provisioning', () => {
  it('creates an app with the default fixtures on first use', async () => {
    const { app } = await createTestApp()
    const auth = { authorization: basic(newKey('a'), newKey('s')) }
    expect((await call(app, 'POST', '/v1/codes', code, auth)).status).toBe(200)
    const balances = await call(app, 'GET', '/v1/accounts/app', undefined, auth)
    expect(balances.body).toEqual({
      app_balance: 10_000,
      app_voice: 1_000,
      app_industry: 9_999,
      app_market: 10_000,
    })
    const send = (temp_id: number, temp_para: object) =>
      call(app, 'POST', '/v1/messages', { mobile: MOBILE, temp_id, temp_para }, auth)
    expect((await send(2, { order: 'A', days: '1' })).status).toBe(200)
    expect((await send(3, { name: 'Li' })).status).toBe(200)
    expect((await send(4, { service: 'a', time: 'b' })).body.error.code).toBe(50020)
    expect((await send(5, { prize: 'a' })).body.error.code).toBe(50021)
  })

  it('binds the secret of the first request', async () => {
    const { app } = await createTestApp()
    const appKey = newKey('a')
    expect(
      (await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: basic(appKey, newKey('s')) }))
        .status,
    ).toBe(200)
    const other = await call(app, 'GET', '/v1/accounts/app', undefined, {
      authorization: basic(appKey, newKey('t')),
    })
    expect(other).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
  })

  it('refuses credentials that are not 24 letters or digits', async () => {
    const { app } = await createTestApp()
    for (const [k, s] of [
      ['short', newKey('s')],
      [newKey('a'), 'short'],
      [`${newKey('a').slice(0, 23)}-`, newKey('s')],
    ]) {
      const res = await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: basic(k!, s!) })
      expect(res).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
    }
  })

  it('is off with AUTO_PROVISION=false: unknown apps get 401 50002', async () => {
    const { app } = await createTestApp({ autoProvision: false })
    const res = await call(app, 'POST', '/v1/codes', code, { authorization: basic(newKey('a'), newKey('s')) })
    expect(res).toMatchObject({ status: 401, body: envelope(50002, 'auth failed') })
    expect((await call(app, 'POST', '/v1/codes', code)).status).toBe(200)
  })
})

describe('isolation', () => {
  it("one app cannot see another's messages or codes, inspection included", async () => {
    const { app } = await createTestApp()
    const mine = await call(app, 'POST', '/v1/codes', code)
    const auth = { authorization: basic(newKey('a'), newKey('s')) }
    const theirs = await call(app, 'GET', `/_sandbox/sms/messages?mobile=${MOBILE}`, undefined, auth)
    // Not even the other app's count shows: its seqs are its own (none yet).
    expect(theirs.body).toEqual({ messages: [], next_after: 0 })
    const byId = await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${mine.body.msg_id}`, undefined, auth)
    expect(byId.body).toEqual({ messages: [], next_after: 0 })
    const latest = await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}`, undefined, auth)
    expect(latest.status).toBe(404)
    const check = await call(app, 'POST', `/v1/codes/${mine.body.msg_id}/valid`, { code: '123456' }, auth)
    expect(check.body.error.code).toBe(50026)
    expect((await call(app, 'GET', `/_sandbox/sms/messages?mobile=${MOBILE}`)).body.messages).toHaveLength(1)
  })
})

describe("the app's standing", () => {
  it('refuses a blacklisted app on every route but lets it look inside the sandbox', async () => {
    const { app } = await seededApp()
    const send = as('blacklisted')
    for (const [method, url, body] of [
      ['POST', '/v1/codes', code],
      ['POST', '/v1/voice_codes', { mobile: MOBILE }],
      ['POST', '/v1/messages', { mobile: MOBILE, temp_id: 2 }],
      ['POST', '/v1/messages/batch', { temp_id: 2, recipients: [] }],
      ['POST', '/v1/codes/1/valid', { code: '123456' }],
      ['GET', '/v1/accounts/app', undefined],
    ] as const) {
      expect((await send(app, method, url, body)).body.error).toEqual({
        code: 50036,
        message: 'app in black',
      })
    }
    expect((await send(app, 'GET', '/_sandbox/sms/messages')).status).toBe(200)
  })

  it('lets a whitelisted address in, also as an IPv4-mapped IPv6 address', async () => {
    const { app } = await seededApp()
    const { appKey, secret } = seeded('whitelisted')
    for (const remoteAddress of ['10.1.2.3', '::ffff:10.1.2.3']) {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/accounts/app',
        remoteAddress,
        headers: { authorization: basic(appKey, secret) },
      })
      expect(res.statusCode).toBe(200)
    }
    const outsider = await app.inject({
      method: 'GET',
      url: '/v1/accounts/app',
      remoteAddress: '10.1.2.4',
      headers: { authorization: basic(appKey, secret) },
    })
    expect(outsider.json()).toEqual(envelope(50035, 'illegal IP'))
  })

  it('checks credentials before standing: a wrong secret is 50002 even for a blacklisted app', async () => {
    const { app } = await seededApp()
    const res = await call(app, 'GET', '/v1/accounts/app', undefined, {
      authorization: basic(seeded('blacklisted').appKey, newKey()),
    })
    expect(res.body.error.code).toBe(50002)
  })
})
