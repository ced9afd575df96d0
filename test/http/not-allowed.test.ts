import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'

// A path's other methods are its vendor's 405, answered where the router finds no route (the
// surface's hooks: http/route-book.ts) rather than by a route per path: each answer must be what
// the router and the path's own routes would have made of the request.

const auth = { authorization: defaultAuth }

describe("a path's other methods", () => {
  it('are refused before the body is read, without credentials, in the vendor envelope', async () => {
    const { app } = await createTestApp()
    const put = await app.inject({
      method: 'PUT',
      url: '/v1/messages',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    })
    expect(put.statusCode).toBe(405)
    expect(put.json().error.code).toBe(50018)
    const patch = await call(app, 'PATCH', '/v3/push', undefined, auth)
    expect([patch.status, patch.body.error.code]).toEqual([405, 1001])
  })

  it('are found as the router finds paths: `//`, a trailing `/` and percent-escapes forgiven, case kept', async () => {
    const { app } = await createTestApp()
    for (const path of ['//v1//messages', '/v1/messages/', '/v1/%6Dessages', '//v1/messages?x=1']) {
      const res = await call(app, 'PUT', path, '{not json', { 'content-type': 'application/json' })
      expect([path, res.status, res.body.error.code]).toEqual([path, 405, 50018])
    }
    // `//v3//…` reaches no surface's 404 (Fastify's 404 routing forgives no `//`): still the
    // path's own 405, in its host's codes.
    const device = await call(app, 'PUT', '//v3//devices//status', undefined, auth)
    expect([device.status, device.body.error.code]).toEqual([405, 7002])
    const upper = await call(app, 'PUT', '/V1/messages')
    expect([upper.status, upper.body.error.code]).toEqual([404, 50016])
  })

  it('answer in the host of the path, and a parametric sibling never takes them', async () => {
    const { app } = await createTestApp()
    // GET /v3/devices/:registration_id would take GET /v3/devices/status, and DELETE
    // /v3/push/:msg_id the DELETEs of /v3/push/validate and /v3/push/schedules, if the router
    // found no route of that method on the static path first.
    const status = await call(app, 'GET', '/v3/devices/status', undefined, auth)
    expect([status.status, status.body.error.code]).toEqual([405, 7002])
    const validate = await call(app, 'DELETE', '/v3/push/validate', undefined, auth)
    expect([validate.status, validate.body.error.code]).toEqual([405, 1001])
    const schedules = await call(app, 'DELETE', '/v3/push/schedules', undefined, auth)
    expect([schedules.status, schedules.body.error.code]).toEqual([405, 8100])
    // A HEAD goes with its refused GET: the 405's header fields, no body.
    const head = await app.inject({ method: 'HEAD', url: '/v3/devices/status', headers: auth })
    expect(head.statusCode).toBe(405)
    expect(head.body).toBe('')
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(status.body)))
  })

  it("are counted by the /v3 address window, and over it refused in the path's own error shape", async () => {
    const { app } = await createTestApp()
    // /v3/push/template answers its failures flat ({code, message}); so does its 405, and the
    // window's 429 before it, as when the 405 was a route of that path.
    const first = await call(app, 'PUT', '/v3/push/template')
    expect(first.status).toBe(405)
    expect(first.body).toEqual({ code: 1001, message: expect.any(String) })
    const limit = Number(first.headers['x-rate-limit-limit'])
    expect(limit).toBeGreaterThan(0)
    let last = first
    for (let i = 1; i <= limit && last.status === 405; i++) last = await call(app, 'PUT', '/v3/push/template')
    expect(last.status).toBe(429)
    expect(last.body).toEqual({ code: 2002, message: expect.any(String) })
  })
})
