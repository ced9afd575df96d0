import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

describe('outside the API prefixes', () => {
  it('GET / describes the sandbox with its default credentials', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/')
    expect(res.status).toBe(200)
    expect(res.body.default_app.app_key).toBe('7d431e42dfa6a6d693ac2d04')
  })

  it('any other path is 404 in the vendor envelope, not Fastify’s', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/nope/at/all')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: { code: 50016, message: 'api not found' } })
  })

  it('OPTIONS on an API path is a wrong method (405 50018), not an unknown path', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'OPTIONS' as 'GET', '/v1/codes')
    expect(res.status).toBe(405)
    expect(res.body.error.code).toBe(50018)
  })
})
