import { expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

// curl -d sends application/x-www-form-urlencoded: the vendor's curl examples still work on /v3.
it('a JSON push body under a form content type is read as JSON', async () => {
  const { app } = await createTestApp()
  const body = { platform: 'all', audience: { tag: ['tag1'] }, notification: { alert: 'hi' } }
  const res = await call(app, 'POST', '/v3/push', body, {
    'content-type': 'application/x-www-form-urlencoded',
  })
  expect(res.status).toBe(200)
  expect(res.body.msg_id).toMatch(/^\d{17}$/)
})
