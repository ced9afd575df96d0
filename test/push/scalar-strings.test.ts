import { describe, expect, it } from 'vitest'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { pushBody } from './helpers.js'

// Numbers and booleans sent as strings (issue 29, point 5). The vendor's server reads the body
// with Jackson, which coerces scalars by default: "60" is an int, "true" a boolean. The sandbox
// does the same unless the app sets `settings.push.strict_types` (docs/fidelity.md).

const stringly = () =>
  pushBody({
    notification: {
      android: { alert: 'a', builder_id: '1', priority: '1', style: '0' },
      ios: { alert: 'i', 'content-available': 'true' },
    },
    options: { time_to_live: '60', apns_production: 'true', big_push_duration: '0', test_model: 'false' },
    sms_message: { delay_time: '0', temp_id: '1', signid: '0' },
  })

const cid = `${APP_KEY}-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b`

describe('scalars sent as strings', () => {
  it('are read as Jackson reads them by default, on /v3/push, validate and batch push', async () => {
    const { app } = await createTestApp()
    for (const path of ['/v3/push', '/v3/push/validate']) {
      const res = await call(app, 'POST', path, stringly())
      expect(res.status, `${path} ${res.raw}`).toBe(200)
      expect(res.body).toEqual({ sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) })
    }
    const { audience: _, ...entry } = stringly()
    const batch = await call(app, 'POST', '/v3/push/batch/regid/single', {
      pushlist: { [cid]: { ...entry, target: '1a0018970a8b0fd6c0e' } },
    })
    expect(batch.status, batch.raw).toBe(200)
    expect(batch.body[cid]).toEqual({ msg_id: expect.stringMatching(/^\d{17}$/) })
  })

  it('are still checked once read: out of range, not digits, or not a boolean word is 1003', async () => {
    const { app } = await createTestApp()
    for (const options of [
      { time_to_live: '864001' },
      { time_to_live: 'sixty' },
      { apns_production: 'yes' },
    ]) {
      const res = await call(app, 'POST', '/v3/push', pushBody({ options }))
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(1003)
    }
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ notification: { android: { alert: 'a', builder_id: '1.5' } } }),
    )
    expect(res.body.error.code).toBe(1003)
  })

  it('settings.push.strict_types refuses them with 1003, as a strict reader would', async () => {
    const { app } = await createTestApp()
    const patched = await call(app, 'PATCH', '/_sandbox/app', { settings: { push: { strict_types: true } } })
    expect(patched.status, patched.raw).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/app')).body.settings.push).toEqual({ strict_types: true })
    for (const body of [
      pushBody({ options: { time_to_live: '60' } }),
      pushBody({ options: { apns_production: 'true' } }),
      pushBody({ notification: { android: { alert: 'a', builder_id: '1' } } }),
    ]) {
      const res = await call(app, 'POST', '/v3/push', body)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(1003)
    }
    const { audience: _, ...entry } = pushBody({ options: { time_to_live: '60' } })
    const batch = await call(app, 'POST', '/v3/push/batch/regid/single', {
      pushlist: { [cid]: { ...entry, target: '1a0018970a8b0fd6c0e' } },
    })
    expect(batch.body[cid].error.code).toBe(1003)
    // A typed body is as good as ever.
    const typed = await call(app, 'POST', '/v3/push', pushBody({ options: { time_to_live: 60 } }))
    expect(typed.status).toBe(200)
  })

  it('a strictness that is not a boolean is refused by PATCH', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PATCH', '/_sandbox/app', { settings: { push: { strict_types: 'yes' } } })
    expect(res.status).toBe(400)
  })
})
