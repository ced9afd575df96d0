import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { envelope, MOBILE } from './support.js'

// Failures Fastify detects before any route runs, rendered in the JSMS envelope with the
// vendor's codes (sms-service.md §7), never in Fastify's own shape.

describe('framework failures in the vendor envelope', () => {
  it('answers an unknown path with 404 50016, with or without credentials', async () => {
    const { app } = await createTestApp()
    const authed = await call(app, 'POST', '/v1/nothing', { mobile: MOBILE })
    expect(authed).toMatchObject({ status: 404, body: envelope(50016, 'api not found') })
    const anonymous = await app.inject({ method: 'GET', url: '/v1/codes/123/valid/extra' })
    expect(anonymous.statusCode).toBe(404)
    expect(anonymous.json()).toEqual(envelope(50016, 'api not found'))
    expect(anonymous.headers['content-type']).toBe('application/json; charset=utf-8')
  })

  it('answers paths the router cannot take (bad escapes, over-long ids) with 404 50016', async () => {
    const { app } = await createTestApp()
    for (const url of [
      '/v1/codes/%E0%A4%A/valid',
      `/v1/codes/${'1'.repeat(200)}/valid`,
      '//v1/codes/%zz/valid',
    ]) {
      const res = await call(app, 'POST', url, { code: '123456' })
      expect(res).toMatchObject({ status: 404, body: envelope(50016, 'api not found') })
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    }
    // The control plane's own 404 (90004).
    const sandbox = await call(app, 'GET', '/_sandbox/sms/%E0%A4%A')
    expect(sandbox).toMatchObject({ status: 404, body: envelope(90004, 'no such endpoint under /_sandbox') })
    // Each surface keeps its own envelope: JPush says 1003.
    const push = await call(app, 'GET', '/v3/devices/%E0%A4%A')
    expect(push).toMatchObject({ status: 404, body: { error: { code: 1003, message: 'API not found' } } })
  })

  it.each([
    ['GET', '/v1/codes'],
    ['PUT', '/v1/voice_codes'],
    ['GET', '/v1/codes/600000000001/valid'],
    ['DELETE', '/v1/messages'],
    ['GET', '/v1/messages/batch'],
    ['POST', '/v1/accounts/app'],
    ['DELETE', '/v1/accounts/dev'],
  ] as const)('answers %s %s with 405 50018', async (method, url) => {
    const { app } = await createTestApp()
    const res = await call(app, method, url)
    expect(res).toMatchObject({ status: 405, body: envelope(50018, 'request method not support') })
  })

  it('answers malformed JSON with 403 50007, whatever the Content-Type', async () => {
    const { app } = await createTestApp()
    for (const type of ['application/json', 'text/plain']) {
      const res = await call(app, 'POST', '/v1/messages', '{"mobile": "138', { 'content-type': type })
      expect(res).toMatchObject({ status: 403, body: envelope(50007, 'invalid body') })
    }
  })

  it('answers a body that is not a JSON object with 403 50007', async () => {
    const { app } = await createTestApp()
    for (const body of ['[]', '"13800138000"', '42']) {
      const res = await call(app, 'POST', '/v1/codes', body)
      expect(res).toMatchObject({ status: 403, body: envelope(50007, 'invalid body') })
    }
  })

  it('answers an empty body with 400 50003, with or without Content-Type', async () => {
    const { app } = await createTestApp()
    const typed = await call(app, 'POST', '/v1/codes', '')
    expect(typed).toMatchObject({ status: 400, body: envelope(50003, 'missing body') })
    const bare = await app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { authorization: defaultAuth },
    })
    expect(bare.statusCode).toBe(400)
    expect(bare.json()).toEqual(envelope(50003, 'missing body'))
    const blank = await call(app, 'POST', '/v1/codes/1/valid', '  \n')
    expect(blank).toMatchObject({
      status: 400,
      body: { ...envelope(50003, 'missing body'), is_valid: false },
    })
  })

  it.each(['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'answers a %s body with 415 50017',
    async type => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', '/v1/codes', 'mobile=13800138000&temp_id=1', {
        'content-type': type,
      })
      expect(res).toMatchObject({ status: 415, body: envelope(50017, 'media not supported') })
    },
  )

  it('answers an oversized body in the vendor envelope', async () => {
    const { app } = await createTestApp()
    const huge = JSON.stringify({ mobile: MOBILE, temp_id: 1, padding: 'x'.repeat(2 * 1024 * 1024) })
    const res = await call(app, 'POST', '/v1/codes', huge)
    // sms-service.md §7: 50007 is HTTP 403 (not Fastify's 413).
    expect(res.status).toBe(403)
    expect(res.body).toEqual(envelope(50007, 'invalid body'))
  })

  it('never leaks a stack or Fastify error shape for odd headers', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/codes', '{"mobile":"13800138000","temp_id":1}', {
      'content-type': 'application/json; charset=latin-9; x=',
    })
    expect(res.status).toBe(200)
  })
})
