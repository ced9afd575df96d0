import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { as, MOBILE, OTHER_MOBILE, seededApp } from './support.js'

// POST /v1/messages (jsms-api.md §2.4): one template message; the handset text is the
// signature in its marks followed by the filled template.

const inspect = async (app: Parameters<typeof call>[0], msgId: string) =>
  (await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${msgId}`)).body.messages[0]

describe('POST /v1/messages', () => {
  it('sends a notification and answers a numeric-string msg_id', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      temp_para: { order: 'A1029', days: '3' },
    })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['msg_id'])
    expect(res.body.msg_id).toMatch(/^\d{12}$/)
    expect(await inspect(app, res.body.msg_id)).toMatchObject({
      mobile: MOBILE,
      kind: 'template',
      temp_id: 2,
      sign_id: 1,
      content: '【极光沙箱】您的订单A1029已发货，预计3天内送达。',
    })
  })

  it('accepts every template type, the verification one for "custom code" sending', async () => {
    const { app } = await createTestApp()
    const code = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 1,
      temp_para: { code: '8888' },
    })
    expect(code.status).toBe(200)
    expect((await inspect(app, code.body.msg_id)).content).toContain('您的验证码为8888')
    const market = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 3,
      temp_para: { name: '李' },
    })
    expect(market.status).toBe(200)
  })

  it('uses the signature named by sign_id, or refuses an unknown one', async () => {
    const { app } = await createTestApp()
    const ok = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      sign_id: 1,
      temp_para: { order: 'A1', days: '2' },
    })
    expect(ok.status).toBe(200)
    const unknown = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      sign_id: 2,
      temp_para: { order: 'A1', days: '2' },
    })
    expect(unknown.body.error.code).toBe(50051)
  })

  it('stores the mobile in national form whatever the notation', async () => {
    const { app } = await createTestApp()
    for (const mobile of ['+8613800138000', '8613800138000', 13800138000, ' 13800138000 ']) {
      const res = await call(app, 'POST', '/v1/messages', {
        mobile,
        temp_id: 2,
        temp_para: { order: String(mobile), days: '1' },
      })
      expect(res.status).toBe(200)
      expect((await inspect(app, res.body.msg_id)).mobile).toBe(MOBILE)
    }
    for (const mobile of ['1380013800', '138001380001', '+1 5551234567', '23800138000', '0086138001380000']) {
      const res = await call(app, 'POST', '/v1/messages', {
        mobile,
        temp_id: 2,
        temp_para: { order: 'A', days: '1' },
      })
      expect(res.body.error).toEqual({ code: 50006, message: 'invalid mobile' })
    }
  })

  it('refuses marketing to an unsubscribed mobile, in any notation, but not notifications', async () => {
    const { app } = await seededApp()
    const send = as('unsubscribed')
    const market = (mobile: string) =>
      send(app, 'POST', '/v1/messages', { mobile, temp_id: 3, temp_para: { name: 'Li' } })
    expect((await market(`+86${MOBILE}`)).body.error.code).toBe(50024)
    // Seeded as +86…, sent in national form.
    expect((await market(OTHER_MOBILE)).body.error.code).toBe(50024)
    expect((await market('13700137000')).status).toBe(200)
    const notice = await send(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      temp_para: { order: 'A1', days: '3' },
    })
    expect(notice.status).toBe(200)
  })

  it('stores and charges nothing for a refused message', async () => {
    const { app } = await createTestApp()
    const before = (await call(app, 'GET', '/v1/accounts/app')).body
    const bad = await call(app, 'POST', '/v1/messages', {
      mobile: MOBILE,
      temp_id: 2,
      temp_para: { order: '赌博', days: '1' },
    })
    expect(bad.body.error.code).toBe(50037)
    expect((await call(app, 'GET', `/_sandbox/sms/messages?mobile=${MOBILE}`)).body.messages).toEqual([])
    expect((await call(app, 'GET', '/v1/accounts/app')).body).toEqual(before)
  })
})
