import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})
const fixed = { template: '恭喜您获得{{prize}}，详情见会员中心。', type: 3, remark: 'reworded' }

describe('template review lifecycle', () => {
  it('is under review for a minute of clock time, then approved and usable by POST /v1/messages', async () => {
    const { app, clock } = await createTestApp()
    const created = await call(app, 'POST', '/v1/templates', { template: '您的包裹{{no}}已到站。', type: 2 })
    const tempId = created.body.temp_id as number
    const send = { mobile: '13800138000', temp_id: tempId, temp_para: { no: 'SF1001' } }

    const early = await call(app, 'POST', '/v1/messages', send)
    expect({ status: early.status, body: early.body }).toEqual(err(403, 50020, 'template auditing'))
    clock.advance(59_999)
    expect((await call(app, 'GET', `/v1/templates/${tempId}`)).body.status).toBe(0)

    clock.advance(1)
    expect((await call(app, 'GET', `/v1/templates/${tempId}`)).body.status).toBe(1)
    const sent = await call(app, 'POST', '/v1/messages', send)
    expect(sent.status).toBe(200)
    const inbox = await call(app, 'GET', '/_sandbox/sms/messages?mobile=13800138000')
    expect(inbox.body.messages[0]).toMatchObject({
      msg_id: sent.body.msg_id,
      temp_id: tempId,
      content: '【极光沙箱】您的包裹SF1001已到站。',
    })
  })

  it('honours the configured review delay, also when the sender is the one who settles it', async () => {
    const { app, clock } = await createTestApp({ reviewDelayMs: 5_000 })
    await call(app, 'POST', '/v1/templates', { template: '{{code}}是您的验证码', type: 1, ttl: 120 })
    clock.advance(5_000)
    // No read in between: sending settles the due review itself.
    const res = await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 10001 })
    expect(res.status).toBe(200)
  })

  it('modifies only a rejected template, which goes back to review', async () => {
    const { app, clock } = await createTestApp()
    const res = await call(app, 'PUT', '/v1/templates/5', { temp_id: 5, ...fixed })
    expect(res).toMatchObject({ status: 200, body: { temp_id: 5 } })
    expect((await call(app, 'GET', '/v1/templates/5')).body).toEqual({
      temp_id: 5,
      ...fixed,
      ttl: 0,
      status: 0,
    })

    const again = await call(app, 'PUT', '/v1/templates/5', fixed)
    expect({ status: again.status, body: again.body }).toEqual(err(403, 50047, 'modify template not allow'))
    clock.advance(60_000)
    expect((await call(app, 'GET', '/v1/templates/5')).body.status).toBe(1)
  })

  it.each([
    ['approved', 1],
    ['under review', 4],
  ])('refuses to modify an %s template (50047)', async (_state, tempId) => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', `/v1/templates/${tempId}`, fixed)
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50047, 'modify template not allow'))
  })

  it('checks a modification with the creation rules', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', '/v1/templates/5', { template: '【x】', type: 3 })
    expect({ status: res.status, body: res.body }).toEqual(
      err(403, 50052, 'template contains special symbol'),
    )
    expect((await call(app, 'GET', '/v1/templates/5')).body.status).toBe(2)
  })

  it('accepts the legacy PUT /v1/templates with temp_id in the body (Java ≤ 1.2.7)', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PUT', '/v1/templates', { temp_id: '5', ...fixed })
    expect(res).toMatchObject({ status: 200, body: { temp_id: 5 } })
    const missing = await call(app, 'PUT', '/v1/templates', fixed)
    expect({ status: missing.status, body: missing.body }).toEqual(err(400, 50005, 'missing temp_id'))
  })

  it('answers other methods on the template paths with 405 50018', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PATCH', '/v1/templates/1', fixed)
    expect({ status: res.status, body: res.body }).toEqual(err(405, 50018, 'request method not support'))
  })
})
