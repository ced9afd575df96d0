import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { addDevice, pushBody } from './helpers.js'

// Issue 29, point 7: a report call without its query is refused (3002, the report host's
// "invalid parameter": jpush-api.md §6.6) — but for jpush-async, which drops every query string
// (node_modules/jpush-async/lib/JPush/Request2.js:28, `path: myURL.pathname`) and names itself in
// its User-Agent (Request2.js:14): it still gets the latest push (test/push/jpush-async.test.ts
// drives the real client).

const JPUSH_ASYNC = { 'user-agent': 'JPush-API-NodeJS-Client 4.2.0', charset: 'UTF-8' }
const REPORTS = [
  '/v3/received',
  '/v3/received/detail',
  '/v3/messages',
  '/v3/messages/detail',
  '/v3/report/received',
  '/v3/report/received/detail',
  '/v3/report/messages',
  '/v3/report/messages/detail',
]

describe('a report without msg_ids', () => {
  it.each(REPORTS)('GET %s: 400 3002 msg_ids is invalid (empty too)', async url => {
    const { app } = await createTestApp()
    await addDevice(app, { platform: 'android', tags: ['t'] })
    expect((await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['t'] } }))).status).toBe(200)
    for (const path of [url, `${url}?msg_ids=`, `${url}?other=1`]) {
      const res = await call(app, 'GET', path)
      expect([res.status, res.body]).toEqual([400, { error: { code: 3002, message: 'msg_ids is invalid' } }])
    }
  })

  it.each(REPORTS)('GET %s from jpush-async: the latest push', async url => {
    const { app } = await createTestApp()
    await addDevice(app, { platform: 'android', tags: ['t'] })
    const pushed = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['t'] } }))
    const res = await call(app, 'GET', url, undefined, JPUSH_ASYNC)
    expect(res.status).toBe(200)
    expect(res.body).toEqual([expect.objectContaining({ msg_id: pushed.body.msg_id })])
  })
})

describe('user statistics without a query', () => {
  it.each(['/v3/users', '/v3/report/users'])(
    'GET %s: 400 3002; from jpush-async: today, by day',
    async url => {
      const { app } = await createTestApp()
      const res = await call(app, 'GET', url)
      expect([res.status, res.body.error?.code]).toEqual([400, 3002])
      const async = await call(app, 'GET', url, undefined, JPUSH_ASYNC)
      expect([async.status, async.body.time_unit, async.body.duration]).toEqual([200, 'DAY', 1])
    },
  )
})
