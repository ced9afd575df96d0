import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { MOBILE } from './support.js'

// POST /v1/codes and POST /v1/voice_codes (jsms-api.md §2.1, §2.2): the platform texts a
// 6-digit code (or says the caller's 4–8 digit one) and answers a msg_id the verify route knows.

const latest = async (app: Parameters<typeof call>[0], mobile = MOBILE) =>
  (await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${mobile}`)).body

describe('POST /v1/codes', () => {
  it('texts a 6-digit code in the signed verification template', async () => {
    const { app, clock } = await createTestApp()
    const res = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ msg_id: expect.stringMatching(/^\d{12}$/) })
    const code = await latest(app)
    expect(code).toEqual({
      seq: 1,
      msg_id: res.body.msg_id,
      mobile: MOBILE,
      kind: 'code',
      code: expect.stringMatching(/^\d{6}$/),
      expires_at: new Date(clock.now() + 300_000).toISOString(),
      verified: false,
      created_at: new Date(clock.now()).toISOString(),
    })
    const [message] = (await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${res.body.msg_id}`)).body
      .messages
    expect(message.content).toBe(`【极光沙箱】您的验证码为${code.code}，5分钟内有效，请勿泄露。`)
    expect(message).toMatchObject({ kind: 'code', temp_id: 1, sign_id: 1, units: 1 })
  })

  it('generates a fresh code for every send, msg_ids never repeat', async () => {
    const { app } = await createTestApp()
    const ids = new Set<string>()
    const codes = new Set<string>()
    for (let i = 0; i < 20; i++) {
      const mobile = `1380013${String(i).padStart(4, '0')}`
      ids.add((await call(app, 'POST', '/v1/codes', { mobile, temp_id: 1 })).body.msg_id)
      codes.add((await latest(app, mobile)).code)
    }
    expect(ids.size).toBe(20)
    // 20 random 6-digit codes all equal would mean a constant code.
    expect(codes.size).toBeGreaterThan(1)
  })

  it('refuses the notification and marketing templates (50025) and bad ttl values (50041)', async () => {
    const { app } = await createTestApp()
    for (const temp_id of [2, 3]) {
      expect((await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id })).body.error.code).toBe(50025)
    }
    for (const ttl of [86_401, -1, 'soon', 1.5]) {
      const res = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1, ttl })
      expect(res.body.error).toEqual({ code: 50041, message: 'invalid ttl value' })
    }
    expect((await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1, ttl: 86_400 })).status).toBe(
      200,
    )
  })
})

describe('POST /v1/voice_codes', () => {
  it("says the caller's code, in the requested language", async () => {
    const { app, clock } = await createTestApp()
    const res = await call(app, 'POST', '/v1/voice_codes', {
      mobile: MOBILE,
      code: '4821',
      voice_lang: 1,
      ttl: 120,
    })
    expect(res.status).toBe(200)
    expect(await latest(app)).toMatchObject({
      msg_id: res.body.msg_id,
      code: '4821',
      expires_at: new Date(clock.now() + 120_000).toISOString(),
    })
    const [message] = (await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${res.body.msg_id}`)).body
      .messages
    expect(message).toMatchObject({ kind: 'voice_code', temp_id: null, sign_id: null, units: 1 })
    expect(message.content).toContain('4 8 2 1')
  })

  it('generates a 6-digit code when none is given, and accepts 4 to 8 digits', async () => {
    const { app, clock } = await createTestApp()
    await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE })
    expect((await latest(app)).code).toMatch(/^\d{6}$/)
    for (const code of ['1234', '12345678', '0007']) {
      clock.advance(20_000)
      expect((await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE, code })).status).toBe(200)
      expect((await latest(app)).code).toBe(code)
    }
  })

  it.each([
    [{ code: '123' }, 50038],
    [{ code: '123456789' }, 50038],
    [{ code: '12 34' }, 50039],
    [{ code: '-1234' }, 50039],
    [{ code: 'abcdef' }, 50039],
    [{ voice_lang: 3 }, 50040],
    [{ voice_lang: -1 }, 50040],
    [{ voice_lang: 'en' }, 50040],
    [{ ttl: 86_401 }, 50041],
    [{ ttl: 'x' }, 50041],
  ])('refuses %j with %i', async (extra, code) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE, ...extra })
    expect(res.status).toBe(403)
    expect(res.body.error.code).toBe(code)
  })
})
