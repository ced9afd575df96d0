import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

const notice = { template: '您的订单{{order_no}}已发货。', type: 2, remark: 'shipping' }
// The default signature 极光沙箱 shows as 【极光沙箱】: 6 characters of the 500.
const SIGNED_ROOM = 500 - 6

const err = (status: number, code: number, message: string) => ({
  status,
  body: { error: { code, message } },
})

describe('POST /v1/templates', () => {
  it('creates a template under review with a fresh temp_id', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/templates', notice)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ temp_id: 10001 })
    const got = await call(app, 'GET', '/v1/templates/10001')
    expect(got.body).toEqual({ temp_id: 10001, ...notice, ttl: 0, status: 0 })
  })

  it('takes the bodies the clients send: Java temp_id 0, C# text/plain, numbers as strings', async () => {
    const { app } = await createTestApp()
    const java = await call(app, 'POST', '/v1/templates', {
      temp_id: 0,
      template: '验证码{{code}}，5分钟内有效。',
      type: 1,
      ttl: 300,
      remark: 'login',
    })
    expect(java).toMatchObject({ status: 200, body: { temp_id: 10001 } })
    const csharp = await call(
      app,
      'POST',
      '/v1/templates',
      JSON.stringify({ template: '您的验证码是{{ code }}', type: '1', ttl: '60', remark: null }),
      { 'content-type': 'text/plain; charset=utf-8' },
    )
    expect(csharp).toMatchObject({ status: 200, body: { temp_id: 10002 } })
    expect((await call(app, 'GET', '/v1/templates/10002')).body).toMatchObject({
      type: 1,
      ttl: 60,
      remark: '',
    })
  })

  it('accepts the longest template that fits with the signature, and variables with inner _', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/templates', { template: 'a'.repeat(SIGNED_ROOM), type: 2 })
    expect(res.status).toBe(200)
    const vars = await call(app, 'POST', '/v1/templates', { template: '{{a_1}}{{B2}}{{x}}', type: 3 })
    expect(vars.status).toBe(200)
    const link = await call(app, 'POST', '/v1/templates', {
      template: '详情{{url}}',
      type: 2,
      remark: 'https://a.cn',
    })
    expect(link.status).toBe(200)
  })

  const rejected: Array<[string, unknown, ReturnType<typeof err>]> = [
    ['no body', undefined, err(400, 50003, 'missing body')],
    ['malformed JSON', '{"template":', err(403, 50007, 'invalid body')],
    ['empty template', { template: '', type: 2 }, err(403, 50042, 'template is empty')],
    ['blank template', { template: '  ', type: 2 }, err(403, 50042, 'template is empty')],
    ['no template', { type: 2 }, err(403, 50042, 'template is empty')],
    ['over 500 alone', { template: 'a'.repeat(501), type: 2 }, err(403, 50043, 'template too long')],
    [
      'over 500 signed',
      { template: 'a'.repeat(SIGNED_ROOM + 1), type: 2 },
      err(403, 50043, 'template too long'),
    ],
    ['type 4', { template: 'x', type: 4 }, err(403, 50007, 'invalid body')],
    ['type text', { template: 'x', type: 'notice' }, err(403, 50007, 'invalid body')],
    ['no type', { template: 'x' }, err(403, 50007, 'invalid body')],
    [
      'signature marks',
      { template: '【广告】{{a}}', type: 2 },
      err(403, 50052, 'template contains special symbol'),
    ],
    [
      'code template, other name',
      { template: '{{pin}}', type: 1, ttl: 60 },
      err(403, 50044, 'template parameter invalid'),
    ],
    [
      'code template, no variable',
      { template: '欢迎', type: 1, ttl: 60 },
      err(403, 50044, 'template parameter invalid'),
    ],
    ['leading _', { template: '{{_a}}', type: 2 }, err(403, 50044, 'template parameter invalid')],
    ['trailing _', { template: '{{a_}}', type: 3 }, err(403, 50044, 'template parameter invalid')],
    ['dash in name', { template: '{{a-b}}', type: 2 }, err(403, 50044, 'template parameter invalid')],
    ['empty name', { template: '{{}}', type: 2 }, err(403, 50044, 'template parameter invalid')],
    ['unclosed', { template: '您好{{name', type: 2 }, err(403, 50044, 'template parameter invalid')],
    [
      'url without remark',
      { template: '点击{{url}}', type: 3 },
      err(403, 50053, 'special template parameter need extra remark for confirmation'),
    ],
    [
      'remark over 500',
      { template: 'x', type: 2, remark: 'r'.repeat(501) },
      err(403, 50045, 'remark too long'),
    ],
    ['code without ttl', { template: '{{code}}', type: 1 }, err(403, 50041, 'invalid ttl value')],
    ['ttl 0', { template: '{{code}}', type: 1, ttl: 0 }, err(403, 50041, 'invalid ttl value')],
    ['ttl negative', { template: '{{code}}', type: 1, ttl: -5 }, err(403, 50041, 'invalid ttl value')],
    ['ttl over a day', { template: '{{code}}', type: 1, ttl: 86_401 }, err(403, 50041, 'invalid ttl value')],
    [
      'ttl not a number',
      { template: '{{code}}', type: 1, ttl: 'soon' },
      err(403, 50041, 'invalid ttl value'),
    ],
  ]
  it.each(rejected)('refuses %s', async (_name, body, expected) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/templates', body)
    expect({ status: res.status, body: res.body }).toEqual(expected)
  })

  it('accepts ttl 86400 and ignores ttl on other types', async () => {
    const { app } = await createTestApp()
    expect(
      (await call(app, 'POST', '/v1/templates', { template: '{{code}}', type: 1, ttl: 86_400 })).status,
    ).toBe(200)
    await call(app, 'POST', '/v1/templates', { template: 'x', type: 2, ttl: -1 })
    expect((await call(app, 'GET', '/v1/templates/10002')).body).toMatchObject({ ttl: 0 })
  })

  it('refuses a template when the app has no approved default signature (50046)', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/_sandbox/sms/signs/1/review', { status: 2 })
    const res = await call(app, 'POST', '/v1/templates', notice)
    expect({ status: res.status, body: res.body }).toEqual(err(403, 50046, 'signature not set'))
  })
})
