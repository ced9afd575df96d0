import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { envelope, MOBILE, OTHER_MOBILE } from '../sms/support.js'

// GET /_sandbox/sms/messages and GET /_sandbox/sms/codes/latest (issue 2, "A first look
// inside"): what the real service hides, scoped to the caller's app.

const get = (app: Parameters<typeof call>[0], url: string, auth?: string) =>
  call(app, 'GET', url, undefined, auth ? { authorization: auth } : {})

describe('GET /_sandbox/sms/messages', () => {
  it('lists what went out, newest first, with the rendered signed text', async () => {
    const { app, clock } = await createTestApp()
    const code = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    clock.advance(1000)
    const voice = await call(app, 'POST', '/v1/voice_codes', { mobile: OTHER_MOBILE, code: '2468' })
    clock.advance(1000)
    const notice = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      temp_para: { order: 'Z9', days: '2' },
    })

    const all = await get(app, '/_sandbox/sms/messages')
    expect(all.status).toBe(200)
    expect(all.body.messages.map((m: { msg_id: string }) => m.msg_id)).toEqual([
      notice.body.msg_id,
      voice.body.msg_id,
      code.body.msg_id,
    ])
    expect(all.body.messages[0]).toMatchObject({
      msg_id: notice.body.msg_id,
      mobile: MOBILE,
      kind: 'template',
      temp_id: 2,
      sign_id: 1,
      content: '【极光沙箱】您的订单Z9已发货，预计2天内送达。',
      created_at: new Date(clock.now()).toISOString(),
    })
    expect(all.body.messages[1]).toMatchObject({ kind: 'voice_code', temp_id: null, sign_id: null })
    expect(all.body.messages[2]).toMatchObject({ kind: 'code', temp_id: 1, sign_id: 1 })
  })

  it('filters by mobile (any notation) and by msg_id', async () => {
    const { app } = await createTestApp()
    const first = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    await call(app, 'POST', '/v1/codes', { mobile: OTHER_MOBILE, temp_id: 1 })
    const byMobile = await get(app, `/_sandbox/sms/messages?mobile=${MOBILE}`)
    expect(byMobile.body.messages.map((m: { mobile: string }) => m.mobile)).toEqual([MOBILE])
    for (const q of [`%2B86${MOBILE}`, `+86${MOBILE}`, `86${MOBILE}`]) {
      expect((await get(app, `/_sandbox/sms/messages?mobile=${q}`)).body.messages).toHaveLength(1)
    }
    const byId = await get(app, `/_sandbox/sms/messages?msg_id=${first.body.msg_id}`)
    expect(byId.body.messages).toEqual([expect.objectContaining({ msg_id: first.body.msg_id })])
    // The app's latest seq: its two codes' and the journal's entries of their requests.
    expect((await get(app, '/_sandbox/sms/messages?mobile=13700137000')).body).toEqual({
      messages: [],
      next_after: 4,
    })
    expect((await get(app, '/_sandbox/sms/messages?limit=1')).body.messages).toHaveLength(1)
  })

  it('needs the app credentials', async () => {
    const { app } = await createTestApp()
    const none = await app.inject({ method: 'GET', url: '/_sandbox/sms/messages' })
    expect(none.statusCode).toBe(401)
    expect(none.json()).toEqual(envelope(90001, 'missing credentials: send HTTP Basic appKey:masterSecret'))
    const wrong = await get(app, '/_sandbox/sms/messages', basic('7d431e42dfa6a6d693ac2d04', newKey()))
    expect(wrong).toMatchObject({
      status: 401,
      body: envelope(90002, 'wrong credentials: appKey and masterSecret do not match'),
    })
    expect((await call(app, 'POST', '/_sandbox/sms/messages', {})).status).toBe(405)
  })
})

describe('GET /_sandbox/sms/codes/latest', () => {
  it('gives the latest code of a mobile, enough to finish a verification flow', async () => {
    const { app, clock } = await createTestApp()
    await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    clock.advance(1000)
    const second = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const latest = await get(app, `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)
    expect(latest).toMatchObject({
      status: 200,
      body: {
        msg_id: second.body.msg_id,
        mobile: MOBILE,
        code: expect.stringMatching(/^\d{6}$/),
        expires_at: new Date(clock.now() + 300_000).toISOString(),
        verified: false,
      },
    })
    const check = await call(app, 'POST', `/v1/codes/${second.body.msg_id}/valid`, { code: latest.body.code })
    expect(check.body).toEqual({ is_valid: true })
    expect((await get(app, `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)).body.verified).toBe(true)
  })

  it('covers voice codes too', async () => {
    const { app } = await createTestApp()
    const voice = await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE, code: '97531' })
    const latest = await get(app, `/_sandbox/sms/codes/latest?mobile=%2B86${MOBILE}`)
    expect(latest.body).toMatchObject({ msg_id: voice.body.msg_id, code: '97531' })
  })

  it('answers 404 90044 when there is none', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      temp_para: { order: 'A', days: '1' },
    })
    for (const url of [`/_sandbox/sms/codes/latest?mobile=${MOBILE}`, '/_sandbox/sms/codes/latest']) {
      const res = await get(app, url)
      expect(res.status).toBe(404)
      expect(res.body.error).toEqual({ code: 90044, message: 'no verification code for this mobile' })
    }
  })
})

describe('a query key given twice', () => {
  // Fastify hands a repeated key over as an array: the first value counts, never a 500.
  it.each([
    ['GET', '/_sandbox/sms/messages?mobile=13800138000&mobile=13800138001&msg_id=1&msg_id=2', 200],
    ['GET', '/_sandbox/sms/codes/latest?mobile=13800138000&mobile=13800138001', 404],
    ['GET', '/_sandbox/callbacks?limit=5&limit=6', 200],
    ['GET', '/_sandbox/push/messages?alias=a&alias=b&registration_id=x&registration_id=y', 200],
    ['GET', '/v3/aliases/alias1?platform=android&platform=ios&new_format=true&new_format=x', 200],
    ['DELETE', '/v3/tags/tag1?platform=android&platform=ios', 200],
  ] as const)('%s %s → %i', async (method, url, status) => {
    const { app } = await createTestApp()
    const res = await call(app, method, url)
    expect(res.status, res.raw).toBe(status)
  })

  it('takes the first value', async () => {
    const { app } = await createTestApp()
    const sent = await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: 1 })
    const res = await get(app, `/_sandbox/sms/codes/latest?mobile=${MOBILE}&mobile=${OTHER_MOBILE}`)
    expect(res.body.msg_id).toBe(sent.body.msg_id)
    const aliases = await get(app, '/v3/aliases/alias1?new_format=true&new_format=false')
    expect(aliases.body.data).toBeInstanceOf(Array)
  })
})
