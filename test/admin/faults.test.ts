import { describe, expect, it } from 'vitest'
import { DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET } from '../../src/seed/fixtures.js'
import { APP_KEY, basic, call, createTestApp } from '../helpers.js'

// Issue 29, point 12: the Admin API's 10 (system error) and 1015 (app delete fail, HTTP 200 as its
// table says: python AdminResponse and cav CodeError read `error` whatever the status) are answers
// no request makes the sandbox give; an app arms them with POST /_sandbox/faults on an /admin/v1
// path, for its developer's Admin API requests (admin.jpush.cn routes there).

const DEV = { authorization: basic(DEFAULT_DEV_KEY, DEFAULT_DEV_SECRET), host: 'admin.jpush.cn' }

describe('faults on the Admin API', () => {
  it('answers an armed 1015 on delete (HTTP 200) and 10 on create, each once, in its envelope', async () => {
    const { app } = await createTestApp()
    const armed = await call(app, 'POST', '/_sandbox/faults', {
      path: `/admin/v1/app/${APP_KEY}/delete`,
      code: 1015,
    })
    expect(armed.status, JSON.stringify(armed.body)).toBe(200)
    const del = await call(app, 'POST', `/v1/app/${APP_KEY}/delete`, undefined, DEV)
    expect([del.status, del.body]).toEqual([200, { error: { code: 1015, message: 'app delete fail' } }])
    // Used up: the next delete is done (the default app comes back as the seed made it).
    const next = await call(app, 'POST', `/v1/app/${APP_KEY}/delete`, undefined, DEV)
    expect([next.status, next.body?.error]).toEqual([200, undefined])

    expect((await call(app, 'POST', '/_sandbox/faults', { path: '/admin/v1/app', code: 10 })).status).toBe(
      200,
    )
    const body = { app_name: 'x', android_package: 'cn.fault.app', group_name: null }
    const made = await call(app, 'POST', '/v1/app', body, DEV)
    expect([made.status, made.body]).toEqual([500, { error: { code: 10, message: 'System error' } }])
    const again = await call(app, 'POST', '/v1/app', body, DEV)
    expect([again.status, again.body.is_new_created]).toEqual([200, true])
  })

  it('refuses an Admin code on another surface, a push code on the Admin API, and a match', async () => {
    const { app } = await createTestApp()
    for (const fault of [
      { path: '/v3/push', code: 1015 },
      { path: '/admin/v1/app', code: 1011 },
      { path: '/admin/v1/app', code: 10, match: { registration_id: '1a0018970a8b0fd6c0e' } },
    ]) {
      const res = await call(app, 'POST', '/_sandbox/faults', fault)
      expect(res.status, JSON.stringify(fault)).toBe(400)
    }
  })

  it('leaves the Admin API alone for a `*` fault of the app', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/_sandbox/faults', { path: '*', code: 1000, status: 500 })
    const body = { app_name: 'x', android_package: 'cn.star.app', group_name: null }
    expect((await call(app, 'POST', '/v1/app', body, DEV)).status).toBe(200)
  })
})
