import { expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { pushBody } from './helpers.js'

it('smoke', async () => {
  const { app } = await createTestApp()
  const res = await call(app, 'POST', '/v3/push', pushBody())
  console.log(res.status, res.raw, res.headers)
  console.log((await call(app, 'GET', '/v3/received')).raw)
  console.log((await call(app, 'GET', '/v3/messages/detail')).raw)
  console.log((await call(app, 'GET', '/_sandbox/push/messages')).raw)
  console.log((await call(app, 'GET', '/v3/devices/1a0018970a8b0fd6c0e')).raw)
  console.log((await call(app, 'GET', '/v3/tags/')).raw)
  expect(res.status).toBe(200)
})
