import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, call, createTestApp, MASTER_SECRET } from '../helpers.js'
import { addDevice } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// Issue 30, point 2: the report host counts what each delivery's route says (push/report/counts.ts).
// Field names: jpush-api.md §6.1 and §6.4; cav api/jpush/report/v3_get_message_detail.go:128-216
// (sub_android's lanes, android_pns with its xm_detail, hw_detail, … per maker) and
// v3_get_received_detail.go:74-89 (android_pns_sent, android_pns_received).

const VENDORS = ['xiaomi', 'huawei', 'honor', 'oppo', 'vivo', 'meizu', 'fcm'] as const
const DETAIL_KEYS = {
  xiaomi: 'xm_detail',
  huawei: 'hw_detail',
  honor: 'honor_detail',
  meizu: 'mz_detail',
  oppo: 'oppo_detail',
  vivo: 'vivo_detail',
  fcm: 'fcm_detail',
} as const
const one = { target: 1, sent: 1, received: 1, display: 1 }

type App = Awaited<ReturnType<typeof createTestApp>>['app']
const deliveries = (app: App, msgId: string) =>
  Object.fromEntries(
    app.store.pushDeliveries
      .ofPush(APP_KEY, msgId)
      .map(d => [d.registrationId, [d.status, d.route, d.reason]]),
  )

describe('the report host counts each route', () => {
  it('one device per maker channel, one over JPush, iOS in both APNs environments (plain HTTP)', async () => {
    const { app } = await createTestApp()
    // Offline with a maker's channel: the default secondary_push sends it through the maker.
    const byVendor: Record<string, string> = {}
    for (const v of VENDORS)
      byVendor[v] = (await addDevice(app, { platform: 'android', channel: v, online: false })).registration_id
    const online = (await addDevice(app, { platform: 'android' })).registration_id
    const waiting = (await addDevice(app, { platform: 'android', online: false })).registration_id
    const devBuild = (await addDevice(app, { platform: 'ios', apns_environment: 'development' }))
      .registration_id
    const prodBuild = (await addDevice(app, { platform: 'ios' })).registration_id
    const res = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [...Object.values(byVendor), online, waiting, devBuild, prodBuild] },
      notification: { alert: 'hi' },
    })
    expect(res.status).toBe(200)
    const msgId: string = res.body.msg_id
    expect(deliveries(app, msgId)).toMatchObject({
      ...Object.fromEntries(VENDORS.map(v => [byVendor[v], ['delivered', v, null]])),
      [online]: ['delivered', 'jpush', null],
      [waiting]: ['pending', 'jpush', 'offline-no-vendor-route'],
      [devBuild]: ['expired', null, 'wrong-apns-environment'],
      [prodBuild]: ['delivered', 'apns-production', null],
    })

    const received = await call(app, 'GET', `/v3/received?msg_ids=${msgId}`)
    expect(received.body).toEqual([
      {
        msg_id: msgId,
        android_received: 8,
        // The development build's token is refused by production APNs: a target, never sent.
        ios_apns_sent: 1,
        ios_apns_received: 1,
        ios_msg_received: null,
        wp_mpns_sent: null,
      },
    ])
    const detail = await call(app, 'GET', `/v3/received/detail?msg_ids=${msgId}`)
    expect(detail.body[0]).toMatchObject({
      msg_id: msgId,
      jpush_received: 1,
      android_pns_sent: 7,
      android_pns_received: 7,
      ios_apns_sent: 1,
      ios_apns_received: 1,
      hmos_hmpns_sent: null,
    })

    const stats = await call(app, 'GET', `/v3/messages/detail?msg_ids=${msgId}`)
    expect(stats.status).toBe(200)
    const [item] = stats.body
    expect(item.jpush).toEqual({
      target: 2,
      online_push: 1,
      sent: 2,
      received: 1,
      display: 1,
      click: 0,
      msg_click: 0,
    })
    expect(item.android_pns).toEqual({
      pns_target: 7,
      pns_sent: 7,
      pns_received: 7,
      pns_display: 7,
      ...Object.fromEntries(Object.values(DETAIL_KEYS).map(k => [k, one])),
    })
    expect(item.ios).toEqual({
      apns_target: 2,
      apns_sent: 1,
      apns_received: 1,
      apns_click: 0,
      msg_target: 0,
      msg_received: 0,
    })
    const { notification, message } = item.details
    expect(message).toBeNull()
    expect(notification).toMatchObject({ target: 11, sent: 10, received: 9, display: 9, click: 0 })
    expect(notification.sub_android).toEqual({
      jg_android: { target: 2, sent: 2, received: 1, display: 1, click: 0 },
      ...Object.fromEntries(VENDORS.map(v => [v, { ...one, click: 0 }])),
    })
    expect(notification.sub_ios).toEqual({ apns: { target: 2, sent: 1, received: 1, display: 1, click: 0 } })
  })

  it('a click counts on the channel its device was reached by', async () => {
    const { app } = await createTestApp()
    const mi = (await addDevice(app, { platform: 'android', channel: 'xiaomi', online: false }))
      .registration_id
    const res = await call(app, 'POST', '/v3/push', {
      platform: ['android'],
      audience: { registration_id: [mi] },
      notification: { alert: 'hi' },
    })
    const clicked = await call(app, 'POST', `/_sandbox/push/messages/${res.body.msg_id}/clicks`, {
      registration_id: mi,
    })
    expect(clicked.status).toBe(200)
    const stats = await call(app, 'GET', `/v3/messages/detail?msg_ids=${res.body.msg_id}`)
    expect(stats.body[0].details.notification.sub_android).toEqual({
      xiaomi: { target: 1, sent: 1, received: 1, display: 1, click: 1 },
    })
    expect(stats.body[0].jpush.click).toBe(0)
  })
})

describe('a vendor quota on the app’s clock', () => {
  it('runs out (the rest go over JPush, or ospush is refused with 1012) and is whole again the next day', async () => {
    const { app, clock } = await createTestApp()
    await call(app, 'PATCH', '/_sandbox/app', {
      settings: { quota: { xiaomi_quota: { operation: { total: 2, used: 0 } } } },
    })
    const rids: string[] = []
    for (let i = 0; i < 3; i++)
      rids.push(
        (await addDevice(app, { platform: 'android', channel: 'xiaomi', online: false })).registration_id,
      )
    const toAll = (extra: Record<string, unknown> = {}) => ({
      platform: ['android'],
      audience: { registration_id: rids },
      notification: { alert: 'hi' },
      ...extra,
    })
    const first = await call(app, 'POST', '/v3/push', toAll())
    expect(first.status).toBe(200)
    expect(Object.values(deliveries(app, first.body.msg_id))).toEqual([
      ['delivered', 'xiaomi', null],
      ['delivered', 'xiaomi', null],
      ['pending', 'jpush', 'vendor-quota-exhausted'],
    ])
    const counted = await call(app, 'GET', `/v3/received/detail?msg_ids=${first.body.msg_id}`)
    expect(counted.body[0]).toMatchObject({ jpush_received: 0, android_pns_sent: 2, android_pns_received: 2 })
    expect((await call(app, 'GET', '/v3/push/quota')).body.data.xiaomi_quota.operation).toEqual({
      total: 2,
      used: 2,
    })

    const ospush = toAll({ options: { third_party_channel: { xiaomi: { distribution: 'ospush' } } } })
    const refused = await call(app, 'POST', '/v3/push', ospush)
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe(1012)

    // The next day of the app's clock: the quota is whole again.
    clock.advance(86_400_000)
    const nextDay = await call(app, 'POST', '/v3/push', {
      ...ospush,
      audience: { registration_id: rids.slice(0, 2) },
    })
    expect(nextDay.status).toBe(200)
    expect(Object.values(deliveries(app, nextDay.body.msg_id))).toEqual([
      ['delivered', 'xiaomi', null],
      ['delivered', 'xiaomi', null],
    ])
    expect((await call(app, 'GET', '/v3/push/quota')).body.data.xiaomi_quota.operation).toEqual({
      total: 2,
      used: 2,
    })
  })
})

describe('the official Node client (jpush-async 4.2.0) on a real port', () => {
  it('third_party_channel and apns_production as it sends them; the reports it reads', async () => {
    const require = createRequire(import.meta.url)
    const { JPushAsync: JPush } = require('jpush-async')
    const app = await buildApp(testConfig(), { clock: new ManualClock() })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const restore = redirectHttpsTo((app.server.address() as AddressInfo).port)
    try {
      const client = JPush.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
      const honor = (await addDevice(app, { platform: 'android', channel: 'honor' })).registration_id
      const prod = (await addDevice(app, { platform: 'ios' })).registration_id
      // setOptions(sendno, time_to_live, override_msg_id, apns_production, big_push_duration,
      // apns_collapse_id, third_party_channel) (jpush-async lib/JPush/PushPayloadAsync.js:396).
      const pushed = await client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.registration_id([honor, prod]))
        .setNotification('hi')
        .setOptions(null, null, null, false, null, null, { honor: { distribution: 'first_ospush' } })
        .send()
      expect(deliveries(app, pushed.msg_id)).toEqual({
        [honor]: ['delivered', 'honor', null],
        // apns_production false: the development environment; this production build is not there.
        [prod]: ['expired', null, 'wrong-apns-environment'],
      })
      // jpush-async drops the query string: the latest push is the one counted (jpush-api.md §6.1).
      const detail = await client.getReportMessagesDetail(pushed.msg_id)
      expect(detail[0].android_pns).toMatchObject({
        pns_target: 1,
        pns_sent: 1,
        pns_received: 1,
        honor_detail: one,
        xm_detail: { target: 0, sent: 0, received: 0, display: 0 },
      })
      expect(detail[0].ios).toMatchObject({ apns_target: 1, apns_sent: 0, apns_received: 0 })
      const received = await client.getReportReceivedDetail(pushed.msg_id)
      expect(received[0]).toMatchObject({
        jpush_received: null,
        android_pns_sent: 1,
        android_pns_received: 1,
        ios_apns_sent: 0,
        ios_apns_received: 0,
      })
    } finally {
      restore()
      await app.close()
    }
  })
})

describe('the control plane shows each delivery’s route and reason', () => {
  it('GET /_sandbox/push/messages/{msg_id}/deliveries: every device, however it went; /_sandbox/push/messages: the route it came by', async () => {
    const { app } = await createTestApp()
    const devBuild = (await addDevice(app, { platform: 'ios', apns_environment: 'development' }))
      .registration_id
    const oppo = (await addDevice(app, { platform: 'android', channel: 'oppo', online: false }))
      .registration_id
    const waiting = (await addDevice(app, { platform: 'android', online: false })).registration_id
    const res = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [devBuild, oppo, waiting] },
      notification: { alert: 'hi' },
    })
    const msgId = res.body.msg_id
    const view = await call(app, 'GET', `/_sandbox/push/messages/${msgId}/deliveries`)
    expect(view.status).toBe(200)
    expect(view.body.deliveries).toEqual([
      {
        registration_id: devBuild,
        platform: 'ios',
        status: 'expired',
        route: null,
        reason: 'wrong-apns-environment',
        delivered_at: null,
        expires_at: expect.any(String),
      },
      expect.objectContaining({ registration_id: oppo, status: 'delivered', route: 'oppo', reason: null }),
      expect.objectContaining({
        registration_id: waiting,
        status: 'pending',
        route: 'jpush',
        reason: 'offline-no-vendor-route',
      }),
    ])
    const got = await call(app, 'GET', `/_sandbox/push/messages?msg_id=${msgId}`)
    expect(got.body.messages).toEqual([
      expect.objectContaining({ registration_id: oppo, route: 'oppo', reason: null }),
    ])
    // The waiting device comes back: it arrives over JPush, with nothing left to explain.
    await call(app, 'PATCH', `/_sandbox/push/devices/${waiting}`, { online: true })
    const after = await call(app, 'GET', `/_sandbox/push/messages?registration_id=${waiting}`)
    expect(after.body.messages).toEqual([
      expect.objectContaining({ msg_id: msgId, route: 'jpush', reason: null }),
    ])
    const devices = await call(app, 'GET', '/_sandbox/push/devices')
    expect(devices.body.devices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          registration_id: devBuild,
          channel: null,
          apns_environment: 'development',
        }),
        expect.objectContaining({ registration_id: oppo, channel: 'oppo', apns_environment: null }),
      ]),
    )
    const unknown = await call(app, 'GET', '/_sandbox/push/messages/18100000000000099/deliveries')
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 90040])
    // One device's pushes, however each went.
    const mine = await call(app, 'GET', `/_sandbox/push/devices/${devBuild}/deliveries`)
    expect(mine.body.deliveries).toEqual([
      expect.objectContaining({
        msg_id: msgId,
        status: 'expired',
        route: null,
        reason: 'wrong-apns-environment',
      }),
    ])
    const nobody = await call(app, 'GET', '/_sandbox/push/devices/1a0000000000000000x/deliveries')
    expect(nobody.status).toBe(404)
  })
})
