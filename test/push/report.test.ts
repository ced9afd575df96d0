import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { addDevice, IOS_1, pushBody } from './helpers.js'

describe('statistics follow what the sandbox delivered (jpush-api.md §6)', () => {
  it('received counts move as offline devices come online', async () => {
    const { app, clock } = await createTestApp()
    const off = await addDevice(app, { platform: 'android', tags: ['stats'], online: false })
    await addDevice(app, { platform: 'android', tags: ['stats'] })
    await addDevice(app, { platform: 'ios', tags: ['stats'], online: false })
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['stats'] } }))
    const id = res.body.msg_id
    expect((await call(app, 'GET', `/v3/received?msg_ids=${id}`)).body).toEqual([
      {
        msg_id: id,
        android_received: 1,
        ios_apns_sent: 1,
        ios_apns_received: 0,
        ios_msg_received: null,
        wp_mpns_sent: null,
      },
    ])
    clock.advance(10_000)
    await call(app, 'PATCH', `/_sandbox/push/devices/${off.registration_id}`, { online: true })
    const after = await call(app, 'GET', `/v3//received/detail?msg_ids=${id},1`)
    expect(after.body[0]).toMatchObject({
      msg_id: id,
      jpush_received: 2,
      android_received: 2,
      ios_apns_received: 0,
    })
    expect(after.body[1]).toMatchObject({ msg_id: '1', android_received: null, jpush_received: null })
    const messages = await call(app, 'GET', `/v3/messages?msg_ids=${id}`)
    expect(messages.body).toEqual([
      {
        msg_id: id,
        android: { received: 2, target: 2, online_push: 1, click: 0, msg_click: 0 },
        ios: { apns_sent: 1, apns_target: 1, apns_received: 0, click: 0, target: 0, received: 0 },
        winphone: { mpns_target: 0, mpns_sent: 0, click: 0 },
      },
    ])
    const detail = (await call(app, 'GET', `/v3/messages/detail?msg_ids=${id}`)).body[0]
    expect(Object.keys(detail)).toHaveLength(8)
    expect(detail.details.notification).toMatchObject({ target: 3, received: 2 })
  })

  it('without msg_ids: 3002, but jpush-async (which drops the query) gets the latest push', async () => {
    const { app } = await createTestApp()
    const jpushAsync = { 'user-agent': 'JPush-API-NodeJS-Client 4.2.0' }
    expect((await call(app, 'GET', '/v3/received', undefined, jpushAsync)).body).toEqual([])
    const res = await call(app, 'POST', '/v3/push', pushBody())
    expect((await call(app, 'GET', '/v3/received', undefined, jpushAsync)).body[0].msg_id).toBe(
      res.body.msg_id,
    )
    expect((await call(app, 'GET', '/v3/received')).body.error.code).toBe(3002)
  })

  it('statistics are kept 30 days', async () => {
    const { app, clock } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', pushBody())
    clock.advance(31 * 86_400_000)
    expect(
      (await call(app, 'GET', `/v3/received?msg_ids=${res.body.msg_id}`)).body[0].android_received,
    ).toBeNull()
  })

  it.each([
    ['/v3/received?msg_ids=abc'],
    [`/v3/received?msg_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`],
    ['/v3/messages/detail?msg_ids='],
  ])('%s → 400 3002', async url => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', url)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(3002)
  })

  it('status/message: 0 delivered, 1 not yet, 2 not in the app, 3 not a target', async () => {
    const { app } = await createTestApp()
    const off = await addDevice(app, { platform: 'ios', alias: 'st', online: false })
    await call(app, 'PATCH', `/_sandbox/push/devices/${IOS_1}`, {})
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [IOS_1, off.registration_id] } }),
    )
    const status = await call(app, 'POST', '/v3/status/message', {
      msg_id: res.body.msg_id,
      registration_ids: [IOS_1, off.registration_id, 'ffff0000', '1a0018970a8b0fd6c0f'],
    })
    expect(status.body).toEqual({
      [IOS_1]: { status: 0 },
      [off.registration_id]: { status: 1 },
      ffff0000: { status: 2 },
      '1a0018970a8b0fd6c0f': { status: 3 },
    })
    const bad = await call(app, 'POST', '/v3/status/message', { msg_id: 'x', registration_ids: [IOS_1] })
    expect(bad.body.error.code).toBe(3002)
    const notJson = await call(app, 'POST', '/v3/status/message', '{bad')
    expect(notJson.body).toEqual({
      error: { code: 3002, message: 'Parameter is invalid, not a valid JSON format' },
    })
  })
})
