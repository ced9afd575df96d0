import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { pushBody } from './helpers.js'

// Push 1020 (issue 29, point 12): "Only support HTTPS request" (jpush-api.md §5.11). With
// HTTPS_ONLY, /v3 on the plain port is refused before anything else; inject's socket is plain.

describe('HTTPS_ONLY', () => {
  it('refuses /v3 over plain HTTP with 404 1020, before auth; /v1 and /_sandbox stay', async () => {
    const { app } = await createTestApp({ httpsOnly: true })
    const res = await call(app, 'POST', '/v3/push', pushBody())
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 1020, message: 'Only support HTTPS request' } })
    const noAuth = await app.inject({ method: 'GET', url: '/v3/push/cid' })
    expect(noAuth.statusCode).toBe(404)
    expect(noAuth.json().error.code).toBe(1020)
    expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/app')).status).toBe(200)
  })

  it('is off by default', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'POST', '/v3/push', pushBody())).status).toBe(200)
  })
})
