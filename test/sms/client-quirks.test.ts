import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { as, MOBILE, seededApp } from './support.js'

// What the official clients put on the wire (sdk-wire-capture.md, jsms-api.md §1.3): every one
// of these must be accepted exactly like a clean request.

const codeBody = JSON.stringify({ mobile: MOBILE, temp_id: 1 })

async function raw(headers: Record<string, string>, payload: string, url = '/v1/codes') {
  const { app } = await createTestApp()
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: defaultAuth, ...headers },
    payload,
  })
  return { status: res.statusCode, body: res.json() }
}

describe('bodies the official clients send', () => {
  it.each([
    ['no Content-Type (Python jsms)', {}],
    ['text/plain; charset=utf-8 (C#)', { 'content-type': 'text/plain; charset=utf-8' }],
    ['application/json;charset:utf-8 (Python jpush)', { 'content-type': 'application/json;charset:utf-8' }],
    ['application/json;charset=utf-8 (Java Netty)', { 'content-type': 'application/json;charset=utf-8' }],
    ['application/json', { 'content-type': 'application/json' }],
  ])('accepts JSON with %s', async (_name, headers) => {
    const res = await raw(headers, codeBody)
    expect(res.status).toBe(200)
    expect(res.body.msg_id).toMatch(/^\d+$/)
  })

  it('takes a JSON object labelled as a form, as `curl -d` without -H sends it', async () => {
    const res = await raw({ 'content-type': 'application/x-www-form-urlencoded' }, codeBody)
    expect(res.status).toBe(200)
    // A real form is still refused (framework.test.ts).
    const form = await raw(
      { 'content-type': 'application/x-www-form-urlencoded' },
      'mobile=13800138000&temp_id=1',
    )
    expect(form.body.error.code).toBe(50017)
  })

  it('accepts a chunked body with no Content-Length (jpush-async)', async () => {
    const res = await raw({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, codeBody)
    expect(res.status).toBe(200)
  })

  it('accepts numbers as strings and strings as numbers', async () => {
    const { app } = await createTestApp()
    expect(
      (await call(app, 'POST', '/v1/codes', { mobile: MOBILE, temp_id: '1', sign_id: '1' })).status,
    ).toBe(200)
    expect((await call(app, 'POST', '/v1/codes', { mobile: 13900139000, temp_id: 1 })).status).toBe(200)
    const voice = await call(app, 'POST', '/v1/voice_codes', {
      mobile: MOBILE,
      code: 123456,
      voice_lang: '1',
      ttl: '60',
    })
    expect(voice.status).toBe(200)
    // C# sends the code to check as a number too.
    const check = await call(app, 'POST', `/v1/codes/${voice.body.msg_id}/valid`, { code: 123456 })
    expect(check).toMatchObject({ status: 200, body: { is_valid: true } })
  })

  it('matches a code sent as a JSON number despite its lost leading zeros', async () => {
    const { app } = await createTestApp()
    const voice = await call(app, 'POST', '/v1/voice_codes', { mobile: MOBILE, code: '004321' })
    const wrong = await call(app, 'POST', `/v1/codes/${voice.body.msg_id}/valid`, { code: 4322 })
    expect(wrong.body.error.code).toBe(50010)
    const check = await call(app, 'POST', `/v1/codes/${voice.body.msg_id}/valid`, { code: 4321 })
    expect(check).toMatchObject({ status: 200, body: { is_valid: true } })
  })

  it('treats null fields as absent and accepts temp_para: []', async () => {
    const { app } = await createTestApp()
    const code = await call(app, 'POST', '/v1/codes', {
      mobile: MOBILE,
      temp_id: 1,
      sign_id: null,
      ttl: null,
    })
    expect(code.status).toBe(200)
    const voice = await call(app, 'POST', '/v1/voice_codes', {
      mobile: MOBILE,
      code: null,
      voice_lang: null,
      ttl: null,
    })
    expect(voice.status).toBe(200)
    // PHP's batch: mobile as a JSON number, parameter values as numbers.
    const batch = await call(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      sign_id: null,
      tag: null,
      recipients: [{ mobile: 13800138000, temp_para: { order: 'A1', days: 3 } }],
    })
    expect(batch.body).toMatchObject({ success_count: 1, failure_count: 0 })
  })

  it('accepts temp_para: [] for a template without parameters', async () => {
    const { app } = await seededApp()
    const res = await as('plain')(app, 'POST', '/v1/messages', { mobile: MOBILE, temp_id: 90, temp_para: [] })
    expect(res.status).toBe(200)
  })

  it('accepts trailing and double slashes', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'POST', '/v1/codes/', { mobile: MOBILE, temp_id: 1 })).status).toBe(200)
    expect((await call(app, 'POST', '/v1//codes', { mobile: MOBILE, temp_id: 1 })).status).toBe(200)
    expect((await call(app, 'GET', '/v1/accounts//app/')).status).toBe(200)
  })

  it('accepts C# pretty-printed bodies with extra fields and defaults', async () => {
    const body =
      '{\r\n  "mobile": "13800138000",\r\n  "temp_id": 1,\r\n  "type": 1,\r\n  "ttl": 0,\r\n  "sign_id": null,\r\n  "tag": null\r\n}'
    const res = await raw({ 'content-type': 'text/plain; charset=utf-8' }, body)
    expect(res.status).toBe(200)
    const voice = await raw(
      { 'content-type': 'text/plain; charset=utf-8' },
      '{\n  "mobile": "13800138000",\n  "code": 4821,\n  "voice_lang": 0,\n  "ttl": 60\n}',
      '/v1/voice_codes',
    )
    expect(voice.status).toBe(200)
  })

  it('accepts a UTF-8 byte order mark and Gson escapes', async () => {
    const res = await raw({}, '\ufeff{"mobile":"13800138000","temp_id":1,"x":"\\u003d\\u003c"}')
    expect(res.status).toBe(200)
  })
})
