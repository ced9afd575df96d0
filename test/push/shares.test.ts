import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { pushBody } from './helpers.js'

// A tenant's share of a shared sandbox (issue 19): devices capped per app (MAX_DEVICES_PER_APP),
// push deliveries kept per app (PUSH_DELIVERIES_KEPT_PER_APP, the oldest pushes forgotten first),
// and what the app holds shown by GET /_sandbox/app/storage.

describe('devices per app', () => {
  it('are refused beyond MAX_DEVICES_PER_APP with 409 90057, other apps unaffected', async () => {
    // The default app starts with its four fixture devices.
    const { app } = await createTestApp({ maxDevicesPerApp: 6 })
    for (let i = 0; i < 2; i++)
      expect((await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })).status).toBe(200)
    const refused = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })
    expect(refused.status).toBe(409)
    expect(refused.body.error).toEqual({
      code: 90057,
      message:
        'the app already has 6 devices, the most one app may register (MAX_DEVICES_PER_APP): reset the app (POST /_sandbox/reset) or raise the setting',
    })
    const other = { authorization: basic(newKey('o'), newKey('s')) }
    expect((await call(app, 'POST', '/_sandbox/push/devices', { platform: 'ios' }, other)).status).toBe(200)
    const storage = await call(app, 'GET', '/_sandbox/app/storage')
    expect(storage.body.rows.push_devices).toBe(6)
    expect(storage.body.limits.devices).toBe(6)
    // A reset gives the app its fixtures back, and room with them.
    expect((await call(app, 'POST', '/_sandbox/reset')).status).toBe(200)
    expect((await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })).status).toBe(200)
  })
})

describe('push deliveries per app', () => {
  it('keep the newest PUSH_DELIVERIES_KEPT_PER_APP: the oldest pushes go first, with their rows', async () => {
    const { app } = await createTestApp({ pushDeliveriesKept: 10 })
    const all = { audience: { tag: ['tag1', 'tag2'] } } // the four fixture devices
    const msgIds: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await call(app, 'POST', '/v3/push', pushBody(all))
      expect(res.status).toBe(200)
      msgIds.push(res.body.msg_id)
      const { rows } = (await call(app, 'GET', '/_sandbox/app/storage')).body
      expect(rows.push_deliveries).toBe(Math.min(4 * (i + 1), 10))
    }
    const kept = async (msgId: string) =>
      (await call(app, 'GET', `/_sandbox/push/messages?msg_id=${msgId}`)).body.messages.length
    // 20 written, 10 kept: the two oldest pushes are gone, the third lost half of its deliveries.
    expect(await Promise.all(msgIds.map(kept))).toEqual([0, 0, 2, 4, 4])
    const storage = (await call(app, 'GET', '/_sandbox/app/storage')).body
    expect(storage.rows.pushes).toBe(3)
    expect(storage.approx_bytes).toBeGreaterThan(0)
    expect(storage.limits.push_deliveries).toBe(10)
  })
})
