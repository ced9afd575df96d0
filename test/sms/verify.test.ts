import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { envelope, MOBILE, sendCode } from './support.js'

// POST /v1/codes/{msg_id}/valid (jsms-api.md §2.3): 200 {"is_valid":true} once; every failure
// carries "is_valid": false next to the vendor error.

const check = (
  app: Parameters<typeof call>[0],
  msgId: string,
  body: unknown,
  headers?: Record<string, string>,
) => call(app, 'POST', `/v1/codes/${msgId}/valid`, body, headers)

describe('POST /v1/codes/{msg_id}/valid', () => {
  it('validates the code that was texted, exactly once', async () => {
    const { app } = await createTestApp()
    const { msgId, code } = await sendCode(app)
    expect(code).toMatch(/^\d{6}$/)
    expect(await check(app, msgId, { code })).toMatchObject({ status: 200, body: { is_valid: true } })
    const again = await check(app, msgId, { code })
    expect(again).toMatchObject({
      status: 403,
      body: { is_valid: false, ...envelope(50012, 'verified code') },
    })
  })

  it('lets a wrong attempt fail without consuming the code', async () => {
    const { app } = await createTestApp()
    const { msgId, code } = await sendCode(app)
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0')
    const res = await check(app, msgId, { code: wrong })
    expect(res).toMatchObject({ status: 403, body: { is_valid: false, ...envelope(50010, 'invalid code') } })
    expect((await check(app, msgId, { code })).status).toBe(200)
  })

  it('answers 10 concurrent correct checks with exactly one success', async () => {
    const { app } = await createTestApp()
    const { msgId, code } = await sendCode(app)
    const results = await Promise.all(Array.from({ length: 10 }, () => check(app, msgId, { code })))
    expect(results.filter(r => r.status === 200)).toHaveLength(1)
    const rest = results.filter(r => r.status !== 200)
    expect(rest).toHaveLength(9)
    for (const r of rest)
      expect(r).toMatchObject({ status: 403, body: { is_valid: false, error: { code: 50012 } } })
  })

  it('expires a code after the template ttl (300 s for temp_id 1), by the clock', async () => {
    const { app, clock } = await createTestApp()
    const first = await sendCode(app)
    const second = await sendCode(app, '13900139000')
    clock.advance(300_000)
    expect((await check(app, first.msgId, { code: first.code })).status).toBe(200)
    clock.advance(1)
    const late = await check(app, second.msgId, { code: second.code })
    expect(late).toMatchObject({ status: 403, body: { is_valid: false, ...envelope(50011, 'expired code') } })
  })

  it('takes the request ttl over the template ttl', async () => {
    const { app, clock } = await createTestApp()
    const short = await sendCode(app, MOBILE, { ttl: 60 })
    const long = await sendCode(app, '13900139000', { ttl: 3600 })
    const latest = await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)
    expect(Date.parse(latest.body.expires_at) - clock.now()).toBe(60_000)
    clock.advance(60_001)
    expect((await check(app, short.msgId, { code: short.code })).body.error.code).toBe(50011)
    clock.advance(1000_000)
    expect((await check(app, long.msgId, { code: long.code })).status).toBe(200)
  })

  it('checks voice codes too, with their 60 s default ttl and the caller-given code', async () => {
    const { app, clock } = await createTestApp()
    const voice = await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE, code: '4821' })
    const other = await call(app, 'POST', '/v1/voice_codes', { mobile: '13900139000', code: '1234' })
    clock.advance(60_000)
    expect((await check(app, voice.body.msg_id, { code: '4821' })).status).toBe(200)
    clock.advance(1)
    expect((await check(app, other.body.msg_id, { code: '1234' })).body.error.code).toBe(50011)
  })

  it('adds is_valid: false to every failure of the route', async () => {
    const { app } = await createTestApp()
    const { msgId } = await sendCode(app)
    const failures = [
      await check(app, msgId, ''),
      await check(app, msgId, '{"code":'),
      await check(app, msgId, { code: '' }),
      await check(app, msgId, { code: true }),
      await check(app, '999', { code: '123456' }),
      await check(
        app,
        msgId,
        { code: '123456' },
        { authorization: basic('7d431e42dfa6a6d693ac2d04', newKey()) },
      ),
      await check(app, msgId, { code: '123456' }, { authorization: '' }),
    ]
    expect(failures.map(f => f.body.error.code)).toEqual([50003, 50007, 50015, 50010, 50026, 50002, 50001])
    for (const f of failures) expect(f.body.is_valid).toBe(false)
  })

  it("does not know another app's msg_id", async () => {
    const { app } = await createTestApp()
    const { msgId, code } = await sendCode(app)
    const stranger = basic(newKey('a'), newKey('s'))
    const res = await check(app, msgId, { code }, { authorization: stranger })
    expect(res).toMatchObject({ status: 403, body: { is_valid: false, ...envelope(50026, 'wrong msg_id') } })
    expect((await check(app, msgId, { code })).status).toBe(200)
  })
})
