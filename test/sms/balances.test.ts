import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call } from '../helpers.js'
import { as, devCredentials, MOBILE, seededApp } from './support.js'

// Balances (jsms-api.md §2.7): only successful sends are charged; 70 characters (signature
// included) make one SMS, a longer text is billed per 67; the kind's own bucket pays first
// (voice / industry / market), then the all-type bucket, then the developer's two; never below 0.

const SIGN = '【极光沙箱】'
// Template 2 without its two parameters, signature included.
const FIXED = [...`${SIGN}您的订单已发货，预计天内送达。`].length

const notify = (app: SandboxApp, send: ReturnType<typeof as>, length: number, mobile = MOBILE) =>
  send(app, 'POST', '/v1/messages', {
    mobile,
    temp_id: 2,
    temp_para: { order: 'x'.repeat(length - FIXED - 1), days: '3' },
  })

describe('billing and balances', () => {
  it.each([
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [500, 8],
  ])('bills a %i-character text as %i SMS', async (length, units) => {
    const { app } = await seededApp()
    const send = as('billing')
    const res = await notify(app, send, length)
    expect(res.status).toBe(200)
    const [message] = (await send(app, 'GET', `/_sandbox/sms/messages?msg_id=${res.body.msg_id}`)).body
      .messages
    expect([...message.content].length).toBe(length)
    expect(message.units).toBe(units)
    expect((await send(app, 'GET', '/v1/accounts/app')).body.app_industry).toBe(100 - units)
  })

  it("takes the kind's bucket, then the all-type bucket, then the developer's", async () => {
    const { app } = await seededApp()
    const send = as('buckets')
    const { devKey, secret } = devCredentials('ones')
    const dev = () =>
      call(app, 'GET', '/v1/accounts/dev', undefined, { authorization: basic(devKey, secret) })
    const app_ = async () => (await send(app, 'GET', '/v1/accounts/app')).body
    const notice = (i: number) => notify(app, send, 40 + i, `1380013800${i}`)

    expect(await app_()).toEqual({ app_balance: 1, app_voice: 1, app_industry: 1, app_market: 1 })
    expect((await notice(0)).status).toBe(200)
    expect(await app_()).toEqual({ app_balance: 1, app_voice: 1, app_industry: 0, app_market: 1 })
    expect((await notice(1)).status).toBe(200)
    expect(await app_()).toEqual({ app_balance: 0, app_voice: 1, app_industry: 0, app_market: 1 })
    expect((await notice(2)).status).toBe(200)
    expect((await dev()).body).toEqual({ dev_balance: 1, dev_voice: 1, dev_industry: 0, dev_market: 1 })
    expect((await notice(3)).status).toBe(200)
    expect((await dev()).body).toEqual({ dev_balance: 0, dev_voice: 1, dev_industry: 0, dev_market: 1 })
    expect((await notice(4)).body.error).toEqual({ code: 50014, message: 'no money' })

    // Voice and marketing have their own buckets; a text code is "industry" like notifications.
    expect((await send(app, 'POST', '/v1/voice_codes', { mobile: MOBILE })).status).toBe(200)
    expect((await send(app, 'POST', '/v1/voice_codes', { mobile: '13900139000' })).status).toBe(200)
    expect((await send(app, 'POST', '/v1/voice_codes', { mobile: '13700137000' })).body.error.code).toBe(
      50014,
    )
    const market = (mobile: string) =>
      send(app, 'POST', '/v1/messages', { mobile, temp_id: 3, temp_para: { name: 'Li' } })
    expect((await market(MOBILE)).status).toBe(200)
    expect((await market('13900139000')).status).toBe(200)
    expect((await market('13700137000')).body.error.code).toBe(50014)
    expect((await send(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })).body.error.code).toBe(50014)
    expect(await app_()).toEqual({ app_balance: 0, app_voice: 0, app_industry: 0, app_market: 0 })
    expect((await dev()).body).toEqual({ dev_balance: 0, dev_voice: 0, dev_industry: 0, dev_market: 0 })
  })

  it('never goes below zero: 20 concurrent sends against a balance of 5', async () => {
    const { app } = await seededApp()
    const send = as('five')
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(app, 'POST', '/v1/codes', { mobile: `138${String(i).padStart(8, '0')}`, temp_id: 1 }),
      ),
    )
    expect(results.filter(r => r.status === 200)).toHaveLength(5)
    const refused = results.filter(r => r.status !== 200)
    expect(refused).toHaveLength(15)
    for (const r of refused) expect(r.body.error).toEqual({ code: 50014, message: 'no money' })
    expect((await send(app, 'GET', '/v1/accounts/app')).body.app_balance).toBe(0)
    expect((await send(app, 'GET', '/_sandbox/sms/messages')).body.messages).toHaveLength(5)
  })

  it('reports null for a bucket with no quota allocated', async () => {
    const { app } = await seededApp()
    const res = await as('five')(app, 'GET', '/v1/accounts/app')
    expect(res.body).toEqual({ app_balance: 5, app_voice: null, app_industry: null, app_market: null })
    const { devKey, secret } = devCredentials('broke')
    const dev = await call(app, 'GET', '/v1/accounts/dev', undefined, {
      authorization: basic(devKey, secret),
    })
    expect(dev.body).toEqual({ dev_balance: null, dev_voice: null, dev_industry: null, dev_market: null })
  })
})
