import { describe, expect, it } from 'vitest'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { addDevice } from './helpers.js'

// Issue 30: a device is a twin of a phone (its maker's channel, the APNs environment of its build)
// and each delivery records the route it took or why it did not arrive (push/send/delivery/route.ts).

type App = Awaited<ReturnType<typeof createTestApp>>['app']
const routes = (app: App, msgId: string) =>
  Object.fromEntries(
    app.store.pushDeliveries
      .ofPush(APP_KEY, msgId)
      .map(d => [d.registrationId, [d.status, d.route, d.reason]]),
  )
const toRids = (rids: string[], extra: Record<string, unknown> = {}) => ({
  platform: 'all',
  audience: { registration_id: rids },
  notification: { alert: 'hi' },
  ...extra,
})

describe('the device twin', () => {
  it('registers the maker channel and APNs environment, with defaults, and refuses what does not fit', async () => {
    const { app } = await createTestApp()
    const mi = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android', channel: 'xiaomi' })
    expect(mi.status).toBe(200)
    expect(mi.body).toMatchObject({ channel: 'xiaomi', apns_environment: null })
    const plain = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' })
    expect(plain.body).toMatchObject({ channel: null, apns_environment: null })
    const ios = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'ios' })
    expect(ios.body).toMatchObject({ channel: null, apns_environment: 'production' })
    const hm = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'hmos' })
    expect(hm.body).toMatchObject({ channel: 'hmos' })
    for (const bad of [
      { platform: 'ios', channel: 'xiaomi' },
      { platform: 'android', channel: 'nokia' },
      { platform: 'android', apns_environment: 'production' },
      { platform: 'ios', apns_environment: 'staging' },
    ]) {
      const res = await call(app, 'POST', '/_sandbox/push/devices', bad)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(90020)
    }
  })
})

describe('how a push reaches a phone', () => {
  it('Android: online over JPush, offline through the maker channel (secondary_push), else it waits', async () => {
    const { app } = await createTestApp()
    const on = (await addDevice(app, { platform: 'android', channel: 'huawei' })).registration_id
    const off = (await addDevice(app, { platform: 'android', channel: 'oppo', online: false }))
      .registration_id
    const bare = (await addDevice(app, { platform: 'android', online: false })).registration_id
    const res = await call(app, 'POST', '/v3/push', toRids([on, off, bare]))
    expect(res.status).toBe(200)
    expect(routes(app, res.body.msg_id)).toEqual({
      [on]: ['delivered', 'jpush', null],
      [off]: ['delivered', 'oppo', null],
      [bare]: ['pending', 'jpush', 'offline-no-vendor-route'],
    })
  })

  it.each(['huawei', 'honor', 'xiaomi', 'oppo', 'vivo', 'meizu', 'fcm'])(
    'distribution ospush / first_ospush / jpush for %s',
    async vendor => {
      const { app } = await createTestApp()
      const rid = (await addDevice(app, { platform: 'android', channel: vendor })).registration_id
      for (const [distribution, route] of [
        ['first_ospush', vendor],
        ['ospush', vendor],
        ['jpush', 'jpush'],
      ]) {
        const body = toRids([rid], {
          options: { third_party_channel: { [vendor]: { distribution } } },
        })
        const res = await call(app, 'POST', '/v3/push', body)
        expect(res.status).toBe(200)
        expect(routes(app, res.body.msg_id)[rid]).toEqual(['delivered', route, null])
      }
    },
  )

  it('iOS: only the APNs environment apns_production names (default production); the other says why', async () => {
    const { app } = await createTestApp()
    const dev = (await addDevice(app, { platform: 'ios', apns_environment: 'development' })).registration_id
    const prod = (await addDevice(app, { platform: 'ios' })).registration_id
    const byDefault = await call(app, 'POST', '/v3/push', toRids([dev, prod]))
    expect(routes(app, byDefault.body.msg_id)).toEqual({
      [dev]: ['expired', null, 'wrong-apns-environment'],
      [prod]: ['delivered', 'apns-production', null],
    })
    const toDev = await call(
      app,
      'POST',
      '/v3/push',
      toRids([dev, prod], { options: { apns_production: false } }),
    )
    expect(routes(app, toDev.body.msg_id)).toEqual({
      [dev]: ['delivered', 'apns-development', null],
      [prod]: ['expired', null, 'wrong-apns-environment'],
    })
  })

  it('a broadcast (one INSERT … SELECT) routes as the device-by-device path does', async () => {
    const { app } = await createTestApp()
    const dev = (await addDevice(app, { platform: 'ios', apns_environment: 'development' })).registration_id
    const mi = (await addDevice(app, { platform: 'android', channel: 'xiaomi', online: false }))
      .registration_id
    const res = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'x' },
    })
    expect(res.status).toBe(200)
    const got = routes(app, res.body.msg_id)
    expect(got[dev]).toEqual(['expired', null, 'wrong-apns-environment'])
    expect(got[mi]).toEqual(['delivered', 'xiaomi', null])
  })
})

describe('GET /v3/push/quota', () => {
  it('counts down as pushes take the vendor quota, and starts again the next day of the app’s clock', async () => {
    const { app } = await createTestApp()
    await call(app, 'PATCH', '/_sandbox/app', {
      settings: { quota: { xiaomi_quota: { operation: { total: 5, used: 1 } } } },
    })
    const xiaomi = await addDevice(app, { platform: 'android', channel: 'xiaomi', online: false })
    const sent = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [xiaomi.registration_id] },
      notification: { alert: 'hi' },
    })
    expect(sent.status).toBe(200)
    const today = await call(app, 'GET', '/v3/push/quota')
    expect(today.body.data.xiaomi_quota.operation).toEqual({ total: 5, used: 2 })
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 86_400_000 })
    const tomorrow = await call(app, 'GET', '/v3/push/quota')
    expect(tomorrow.body.data.xiaomi_quota.operation).toEqual({ total: 5, used: 1 })
  })
})
