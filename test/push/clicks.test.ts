import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, IOS_2, pushBody } from './helpers.js'

// A device opens a push (issue 12 §5): POST /_sandbox/push/messages/{msg_id}/clicks, counted by
// the report host's click counters (jpush-api.md §6.3, §6.4).

const click = (app: Parameters<typeof call>[0], msgId: string, body: unknown) =>
  call(app, 'POST', `/_sandbox/push/messages/${msgId}/clicks`, body)

describe('opening a push', () => {
  it('is recorded on the app clock, once per device', async () => {
    const { app, clock } = await createTestApp()
    const id = (await call(app, 'POST', '/v3/push', pushBody())).body.msg_id
    clock.advance(90_000)
    const first = await click(app, id, { registration_id: ANDROID_1 })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      msg_id: id,
      registration_id: ANDROID_1,
      platform: 'android',
      kind: 'notification',
      clicked_at: '2026-01-01T00:01:30.000Z',
    })
    clock.advance(1000)
    // The notification has left the tray: a repeat answers the first click and counts nothing.
    expect((await click(app, id, { registration_id: ANDROID_1 })).body).toEqual(first.body)
    const messages = await call(app, 'GET', `/v3/messages?msg_ids=${id}`)
    expect(messages.body[0].android).toMatchObject({ click: 1, msg_click: 0 })
  })

  it('feeds click and msg_click of /v3/messages and /v3/messages/detail per platform', async () => {
    const { app } = await createTestApp()
    const hmos = await addDevice(app, { platform: 'hmos', tags: ['c'] })
    const quickapp = await addDevice(app, { platform: 'quickapp', tags: ['c'] })
    const all = [ANDROID_1, ANDROID_2, IOS_1, IOS_2, hmos.registration_id, quickapp.registration_id]
    // A notification for android and ios only: hmos and quickapp get the message.
    const id = (
      await call(app, 'POST', '/v3/push', {
        platform: 'all',
        audience: { registration_id: all },
        notification: { android: { alert: 'a' }, ios: { alert: 'i' } },
        message: { msg_content: 'm' },
      })
    ).body.msg_id
    for (const rid of [ANDROID_1, ANDROID_2, IOS_1, hmos.registration_id, quickapp.registration_id]) {
      expect((await click(app, id, { registration_id: rid })).status).toBe(200)
    }
    expect((await click(app, id, { registration_id: hmos.registration_id })).body.kind).toBe('message')

    const [legacy] = (await call(app, 'GET', `/v3/messages?msg_ids=${id}`)).body
    expect(legacy.android).toMatchObject({ target: 2, received: 2, click: 2, msg_click: 0 })
    expect(legacy.ios).toMatchObject({ apns_target: 2, click: 1 })
    expect(legacy.winphone.click).toBe(0)

    const [detail] = (await call(app, 'GET', `/v3/messages/detail?msg_ids=${id}`)).body
    expect(detail.jpush).toMatchObject({ click: 2, msg_click: 0 })
    expect(detail.ios.apns_click).toBe(1)
    expect(detail.quickapp_jpush.click).toBe(1)
    expect(detail.details.notification).toMatchObject({
      click: 3,
      sub_android: { jg_android: expect.objectContaining({ click: 2 }) },
      sub_ios: { apns: expect.objectContaining({ click: 1 }) },
    })
    expect(detail.details.message).toMatchObject({
      click: 2,
      // A message travels the JPush connection only (views.ts lanesFor).
      sub_android: { jg_android: expect.objectContaining({ click: 0 }) },
      sub_hmos: { jg_hmos: expect.objectContaining({ click: 1 }) },
      sub_quickapp: { quick_jg: expect.objectContaining({ click: 1 }) },
    })
  })

  it('of a message-only push on android counts as msg_click', async () => {
    const { app } = await createTestApp()
    const id = (
      await call(app, 'POST', '/v3/push', {
        platform: ['android'],
        audience: { registration_id: [ANDROID_2] },
        message: { msg_content: 'm' },
      })
    ).body.msg_id
    expect((await click(app, id, { registration_id: ANDROID_2 })).body.kind).toBe('message')
    const [legacy] = (await call(app, 'GET', `/v3/messages?msg_ids=${id}`)).body
    expect(legacy.android).toMatchObject({ click: 0, msg_click: 1 })
    const [detail] = (await call(app, 'GET', `/v3/messages/detail?msg_ids=${id}`)).body
    expect(detail.jpush).toMatchObject({ click: 0, msg_click: 1 })
  })
})

describe('a click is refused', () => {
  it.each([
    ['no body', 400, 90011, undefined],
    ['no registration_id', 400, 90020, {}],
    ['an empty registration_id', 400, 90020, { registration_id: '' }],
    ['a registration_id that is not text', 400, 90020, { registration_id: ['x'] }],
  ])('with %s → %i %i', async (_name, status, code, body) => {
    const { app } = await createTestApp()
    const id = (await call(app, 'POST', '/v3/push', pushBody())).body.msg_id
    const res = await click(app, id, body)
    expect(res.status).toBe(status)
    expect(res.body.error.code).toBe(code)
  })

  it('for a msg_id the app never made (or another app made) → 404 90040', async () => {
    const { app } = await createTestApp()
    const other = basic(newKey('other'), newKey('s'))
    const theirs = await call(app, 'POST', '/v3/push', pushBody(), { authorization: other })
    for (const id of ['18100000000000099', 'abc', theirs.body.msg_id]) {
      const res = await click(app, id, { registration_id: ANDROID_1 })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ error: { code: 90040, message: `no push with msg_id ${id} in this app` } })
    }
  })

  it('for a device the app does not have → 404 90043', async () => {
    const { app } = await createTestApp()
    const id = (await call(app, 'POST', '/v3/push', pushBody())).body.msg_id
    const res = await click(app, id, { registration_id: '1a00000000000000000' })
    expect(res.status).toBe(404)
    expect(res.body.error).toEqual({
      code: 90043,
      message: 'no device with registration_id 1a00000000000000000 in this app',
    })
  })

  it('for a device that has not received the push → 409 90055, saying why', async () => {
    const { app, clock } = await createTestApp()
    const off = await addDevice(app, { platform: 'android', tags: ['later'], online: false })
    const rid = off.registration_id
    const id = (
      await call(
        app,
        'POST',
        '/v3/push',
        pushBody({ audience: { tag: ['later'] }, options: { time_to_live: 60 } }),
      )
    ).body.msg_id
    const notTarget = await click(app, id, { registration_id: ANDROID_1 })
    expect(notTarget.status).toBe(409)
    expect(notTarget.body.error).toEqual({
      code: 90055,
      message: `registration_id ${ANDROID_1} has not received msg_id ${id}: the device was not in its audience`,
    })
    const pending = await click(app, id, { registration_id: rid })
    expect(pending.status).toBe(409)
    expect(pending.body.error.message).toContain('the device is offline')
    clock.advance(61_000)
    const expired = await click(app, id, { registration_id: rid })
    expect(expired.status).toBe(409)
    expect(expired.body.error.message).toContain('the push is expired')
    // Nothing was counted.
    expect((await call(app, 'GET', `/v3/messages?msg_ids=${id}`)).body[0].android.click).toBe(0)
  })

  it('after it arrives, the same device may open it', async () => {
    const { app, clock } = await createTestApp()
    const off = await addDevice(app, { platform: 'android', tags: ['later'], online: false })
    const id = (await call(app, 'POST', '/v3/push', pushBody({ audience: { tag: ['later'] } }))).body.msg_id
    clock.advance(5_000)
    await call(app, 'PATCH', `/_sandbox/push/devices/${off.registration_id}`, { online: true })
    expect((await click(app, id, { registration_id: off.registration_id })).status).toBe(200)
  })
})
