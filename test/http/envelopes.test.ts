import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { parseResponse, rawExchange } from './raw-socket.js'

// Which envelope answers what no route took, and what a HEAD gets back.

describe('a mis-cased prefix', () => {
  // Routes are case-sensitive (`/V3/push` is no route: 404), but whoever wrote `/V3/…` is a JPush
  // client: the 404 is JPush's, not JSMS's 50016.
  it.each(['/V3/push', '/V3/push/validate', '/V3/devices/1a0018970a8b0fd6c0e'])(
    'POST %s answers 404 in the JPush envelope; /V1/… stays JSMS, /_SANDBOX/… the control plane',
    async path => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', path, { platform: 'all', audience: 'all' })
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: 1003, message: 'API not found' } },
      })
      expect((await call(app, 'GET', '/V1/codes')).body).toEqual({
        error: { code: 50016, message: 'api not found' },
      })
      expect((await call(app, 'GET', '/_SANDBOX/clock')).body).toEqual({
        error: { code: 90004, message: 'no such endpoint under /_sandbox' },
      })
    },
  )

  it('a request the HTTP parser refuses on /V3/… or /v3/devices gets its group’s code', async () => {
    const { app } = await createTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    // A header line that is not a header: refused before any route is chosen.
    const broken = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\nnot a header\r\n\r\n{}`
    const push = parseResponse(await rawExchange(port, broken('/V3/push')))
    expect(push.status).toBe(400)
    expect(JSON.parse(push.body).error.code).toBe(1003)
    const device = parseResponse(await rawExchange(port, broken('/v3/devices/1a0018970a8b0fd6c0e')))
    expect(JSON.parse(device.body).error.code).toBe(7002)
    const report = parseResponse(await rawExchange(port, broken('/v3/status/message')))
    expect(JSON.parse(report.body).error.code).toBe(3002)
  })
})

describe('HEAD', () => {
  it('never carries a body, even when Node’s parser refuses an over-long URL', async () => {
    const { app } = await createTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const url = `/v1/codes/${'9'.repeat(20_000)}/valid`
    const head = parseResponse(await rawExchange(port, `HEAD ${url} HTTP/1.1\r\nHost: x\r\n\r\n`))
    expect(head.status).toBe(431)
    expect(head.body).toBe('')
    // RFC 9110 §9.3.2: the same header fields a GET would get, its Content-Length included.
    const get = parseResponse(await rawExchange(port, `GET ${url} HTTP/1.1\r\nHost: x\r\n\r\n`))
    expect(get.status).toBe(431)
    expect(JSON.parse(get.body)).toEqual({ error: { code: 50007, message: 'invalid body' } })
    expect(head.headers['content-length']).toBe(get.headers['content-length'])
    // A path parameter over the router's limit is refused by Fastify, which knows HEAD too.
    const param = parseResponse(
      await rawExchange(port, `HEAD /v1/codes/${'9'.repeat(5_000)}/valid HTTP/1.1\r\nHost: x\r\n\r\n`),
    )
    expect(param.status).toBe(404)
    expect(param.body).toBe('')
  })
})
