import { Readable } from 'node:stream'
import { Client } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, defaultAuth } from '../helpers.js'
import { MOBILE } from './support.js'

// The same flow over a real socket (port 0), with what inject cannot show: a chunked body with
// no Content-Length or Content-Type, keep-alive, and answers with Content-Length and the
// Content-Type jpush-async needs (sdk-wire-capture.md §6).

let client: Client | undefined
afterEach(async () => {
  await client?.close()
  client = undefined
})

async function listening() {
  const { app } = await createTestApp()
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  client = new Client(address, { pipelining: 1 })
  const request = async (method: 'GET' | 'POST', path: string, body?: string | Readable, headers = {}) => {
    const res = await client!.request({
      method,
      path,
      body,
      headers: { authorization: defaultAuth, ...headers },
    })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) }
  }
  return { app, request }
}

/** A stream body: undici sends it chunked, with no Content-Length. */
function chunks(text: string, size = 7): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < text.length; i += size) yield Buffer.from(text.slice(i, i + size))
    })(),
  )
}

describe('a real server on a real port', () => {
  it('completes a verification flow the way the Python and Node clients send it', async () => {
    const { request } = await listening()
    // Python jsms: no Content-Type. jpush-async style: chunked, no Content-Length.
    const sent = await request('POST', '/v1/codes', chunks(JSON.stringify({ mobile: MOBILE, temp_id: '1' })))
    expect(sent.status).toBe(200)
    expect(sent.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(sent.headers['content-length']).toBe(String(JSON.stringify(sent.body).length))
    expect(sent.headers['transfer-encoding']).toBeUndefined()

    const latest = await request('GET', `/_sandbox/sms/codes/latest?mobile=${MOBILE}`)
    expect(latest.body.msg_id).toBe(sent.body.msg_id)
    const check = await request(
      'POST',
      `/v1/codes/${sent.body.msg_id}/valid`,
      JSON.stringify({ code: latest.body.code }),
      {
        'content-type': 'text/plain; charset=utf-8',
      },
    )
    expect(check).toMatchObject({ status: 200, body: { is_valid: true } })
    const again = await request(
      'POST',
      `/v1/codes/${sent.body.msg_id}/valid`,
      `{"code":"${latest.body.code}"}`,
    )
    expect(again).toMatchObject({
      status: 403,
      body: { is_valid: false, error: { code: 50012, message: 'verified code' } },
    })
  })

  it('answers failures in the vendor envelope on the wire too', async () => {
    const { request } = await listening()
    const malformed = await request('POST', '/v1/messages', '{"mobile":', {
      'content-type': 'application/json;charset:utf-8',
    })
    expect(malformed).toMatchObject({
      status: 403,
      body: { error: { code: 50007, message: 'invalid body' } },
    })
    const unknown = await request('GET', '/v1//nothing/')
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 50016, message: 'api not found' } } })
    const huge = await request('POST', '/v1/codes', chunks(`{"x":"${'y'.repeat(1024 * 1024)}"}`, 64 * 1024))
    // sms-service.md §7: 50007 is HTTP 403, an over-size body included (not Fastify's 413).
    expect(huge.status).toBe(403)
    expect(huge.body).toEqual({ error: { code: 50007, message: 'invalid body' } })
  })
})
