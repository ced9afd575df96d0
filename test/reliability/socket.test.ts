import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { rawExchange } from '../http/raw-socket.js'

// What inject cannot send: a Content-Length that lies, bytes that are not UTF-8, broken chunking,
// a client that goes away. The server answers in the vendor envelope when it can answer at all,
// and keeps serving.

const raw = rawExchange

const head = (path: string, length: number | string, extra = '') =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${defaultAuth}\r\nContent-Type: application/json\r\n` +
  `Content-Length: ${length}\r\nConnection: close\r\n${extra}\r\n`

function firstJson(response: string): { status: number; body: { error?: { code: number } } } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1])
  const body = response.slice(response.indexOf('\r\n\r\n') + 4)
  return { status, body: JSON.parse(body.slice(0, body.lastIndexOf('}') + 1)) }
}

describe('real sockets', () => {
  it('keeps serving through lying lengths, invalid UTF-8, broken chunks and vanishing clients', async () => {
    const { app } = await createTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }

    // Body shorter than announced, then the client half-closes: nothing to answer, no crash.
    await raw(port, head('/v1/messages', 500) + '{"mobile":"13800138000"')
    // Body longer than announced: the rest is not HTTP, Node's parser refuses the connection.
    const longer = await raw(port, head('/v1/messages', 10) + '{"mobile":"13800138000","temp_id":1}')
    expect(firstJson(longer)).toEqual({
      status: 400,
      body: { error: { code: 50007, message: 'invalid body' } },
    })
    // Invalid UTF-8 with an honest length.
    const bytes = Buffer.concat([
      Buffer.from('{"mobile":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
      Buffer.from('"}'),
    ])
    const invalid = await raw(port, Buffer.concat([Buffer.from(head('/v1/messages', bytes.length)), bytes]))
    expect(firstJson(invalid).status).toBeLessThan(500)
    expect(typeof firstJson(invalid).body.error?.code).toBe('number')
    // A byte that HTTP does not allow in a path: the parser refuses the request.
    const badPath = await raw(
      port,
      Buffer.concat([
        Buffer.from('POST /v1/codes/%ZZ'),
        Buffer.from([0xff]),
        Buffer.from(`/valid${head('', 2).slice(6)}{}`),
      ]),
    )
    expect(firstJson(badPath).status).toBeLessThan(500)
    expect(firstJson(badPath).body.error?.code).toBe(50007)
    // Broken chunked encoding.
    const chunked = `POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`
    expect(firstJson(await raw(port, chunked))).toEqual({
      status: 400,
      body: { error: { code: 50007, message: 'invalid body' } },
    })
    // A client that announces a body and vanishes without sending it.
    await raw(port, head('/v1/messages', 100), { end: false })

    const sent = await call(app, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'R', days: '1' },
    })
    expect(sent.status).toBe(200)
    const res = await fetch(`http://127.0.0.1:${port}/v1/accounts/app`, {
      headers: { authorization: defaultAuth },
    })
    expect(res.status).toBe(200)
  })
})
