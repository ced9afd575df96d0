import { describe, expect, it } from 'vitest'
import { postForm, pythonForm } from '../fixtures/sign-forms.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})

describe('POST /_sandbox/sms/templates/:temp_id/review', () => {
  it('approves a template at once, without moving the clock', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/sms/templates/4/review', { status: 1 })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ temp_id: 4, status: 1, refuse_reason: null })
    const sent = await call(app, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 4,
      temp_para: { service: '洗牙', time: '周五' },
    })
    expect(sent.status).toBe(200)
  })

  it('rejects with a reason; the template then fails to send (50021) and may be modified', async () => {
    const { app, clock } = await createTestApp()
    await call(app, 'POST', '/v1/templates', { template: '{{code}}', type: 1, ttl: 60 })
    const res = await call(app, 'POST', '/_sandbox/sms/templates/10001/review', {
      status: '2',
      refuse_reason: '太短',
    })
    expect(res.body).toMatchObject({ temp_id: 10001, status: 2, refuse_reason: '太短' })
    // A decided review is not overturned when its original time comes.
    clock.advance(60_000)
    expect((await call(app, 'GET', '/v1/templates/10001')).body.status).toBe(2)
    const send = await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 10001 })
    expect({ status: send.status, body: send.body }).toEqual(err(403, 50021, 'template not pass'))
    const fix = await call(app, 'PUT', '/v1/templates/10001', {
      template: '验证码{{code}}',
      type: 1,
      ttl: 60,
    })
    expect(fix.status).toBe(200)
  })

  it('can withdraw an approval', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/_sandbox/sms/templates/1/review', { status: 2 })
    const res = await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50021, 'template not pass'))
  })

  it.each([
    ['unknown', '/_sandbox/sms/templates/99999/review'],
    ['not a number', '/_sandbox/sms/templates/x/review'],
  ])('answers an %s temp_id with 404 90041', async (_name, url) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', url, { status: 1 })
    expect({ status: res.status, body: res.body }).toEqual(err(404, 90041, 'no template with this temp_id'))
  })

  it("cannot decide another app's template", async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/v1/templates', { template: 'x', type: 2 })
    const other = { authorization: basic(newKey('a'), newKey('s')) }
    const res = await call(app, 'POST', '/_sandbox/sms/templates/10001/review', { status: 1 }, other)
    expect({ status: res.status, body: res.body }).toEqual(err(404, 90041, 'no template with this temp_id'))
    expect((await call(app, 'GET', '/v1/templates/10001')).body.status).toBe(0)
  })

  it.each([
    // The control plane's refusals are 400 with the field and the reason (src/control/errors.ts).
    ['status 3', { status: 3 }, err(400, 90020, '"status": must be 1 (approve) or 2 (reject)')],
    ['no status', { refuse_reason: 'x' }, err(400, 90020, '"status": must be 1 (approve) or 2 (reject)')],
    ['a body that is not an object', [], err(400, 90010, 'the body must be a JSON object')],
    ['no body', undefined, err(400, 90011, 'missing body: this endpoint takes a JSON object')],
  ])('refuses %s', async (_name, body, expected) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/sms/templates/4/review', body)
    expect({ status: res.status, body: res.body }).toEqual(expected)
  })

  it('needs the app credentials', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({
      method: 'POST',
      url: '/_sandbox/sms/templates/4/review',
      payload: { status: 1 },
    })
    expect({ status: res.statusCode, body: res.json() }).toEqual(
      err(401, 90001, 'missing credentials: send HTTP Basic appKey:masterSecret'),
    )
  })
})

describe('POST /_sandbox/sms/signs/:sign_id/review', () => {
  it('approves a signature at once, so the next one can be submitted', async () => {
    const { app } = await createTestApp()
    await postForm(app, '/v1/sign', pythonForm({ sign: '新签名' }))
    const res = await call(app, 'POST', '/_sandbox/sms/signs/10001/review', { status: 1 })
    expect(res.body).toEqual({
      sign_id: 10001,
      sign: '新签名',
      status: 1,
      is_default: 0,
      use_status: 0,
      refuse_reason: null,
    })
    expect((await postForm(app, '/v1/sign', pythonForm({ sign: '再一个' }))).status).toBe(200)
  })

  it('rejecting the default signature leaves the app without one (50046)', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/sms/signs/1/review', {
      status: 2,
      refuse_reason: 'expired',
    })
    expect(res.body).toMatchObject({ sign_id: 1, status: 2, is_default: 1, refuse_reason: 'expired' })
    const send = await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 })
    expect({ status: send.status, body: send.body }).toEqual(err(403, 50046, 'signature not set'))
  })

  it('answers an unknown sign_id with 404 90042', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/sms/signs/424242/review', { status: 1 })
    expect({ status: res.status, body: res.body }).toEqual(err(404, 90042, 'no signature with this sign_id'))
  })
})
