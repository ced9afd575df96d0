import { describe, expect, it } from 'vitest'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, IOS_2, pushBody, received } from './helpers.js'

describe('audience resolution against the registry', () => {
  it.each([
    ['all', 'all', [ANDROID_1, ANDROID_2, IOS_1, IOS_2]],
    ['tag (OR)', { tag: ['vip', 'tag2'] }, [ANDROID_2, IOS_1, IOS_2]],
    ['tag_and', { tag_and: ['tag2', 'beta'] }, [IOS_2]],
    ['tag with tag_not', { tag: ['tag1', 'tag2'], tag_not: ['beta'] }, [ANDROID_2, IOS_1]],
    ['alias', { alias: ['alias1'] }, [ANDROID_1, IOS_1]],
    ['alias AND tag', { alias: ['alias1'], tag: ['vip'] }, [IOS_1]],
    ['registration_id', { registration_id: [IOS_2, ANDROID_2] }, [ANDROID_2, IOS_2]],
  ])('%s', async (_name, audience, expected) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', pushBody({ audience }))
    expect(res.status).toBe(200)
    const got = (await received(app, `msg_id=${res.body.msg_id}`)).map(m => m.registration_id).sort()
    expect(got).toEqual([...expected].sort())
  })

  it('platform limits the audience; each platform gets its own notification', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', {
      platform: ['ios'],
      audience: { alias: ['alias1'] },
      notification: { alert: 'shared', ios: { alert: 'for ios', badge: 1 } },
      message: { msg_content: 'payload' },
    })
    const got = await received(app, `msg_id=${res.body.msg_id}`)
    expect(got).toEqual([
      expect.objectContaining({
        registration_id: IOS_1,
        platform: 'ios',
        notification: { alert: 'for ios', badge: 1 },
        message: { msg_content: 'payload' },
      }),
    ])
  })

  it('segment and abtest resolve through the app settings', async () => {
    const { app } = await createTestApp()
    const a = app.store.apps.get(APP_KEY)!
    app.store.apps.updateSettings({
      ...a,
      settings: { segments: { seg1: [ANDROID_2] }, abtests: { ab1: [ANDROID_2, IOS_1] } },
    })
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { segment: ['seg1'], abtest: ['ab1'] } }),
    )
    expect((await received(app, `msg_id=${res.body.msg_id}`)).map(m => m.registration_id)).toEqual([
      ANDROID_2,
    ])
    const none = await call(app, 'POST', '/v3/push', pushBody({ audience: { segment: ['unknown'] } }))
    expect(none.body.error.code).toBe(1011)
  })
})

describe('offline devices and time_to_live', () => {
  it('an offline device gets the push when it comes online within time_to_live, not after', async () => {
    const { app, clock } = await createTestApp()
    const late = await addDevice(app, { platform: 'android', alias: 'late', online: false })
    const never = await addDevice(app, { platform: 'android', alias: 'late', online: false })
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { alias: ['late'] }, options: { time_to_live: 60 } }),
    )
    expect(res.status).toBe(200)
    expect(await received(app, `msg_id=${res.body.msg_id}`)).toEqual([])
    clock.advance(59_000)
    const on = await call(app, 'PATCH', `/_sandbox/push/devices/${late.registration_id}`, { online: true })
    expect(on.body).toMatchObject({ online: true, delivered: 1 })
    clock.advance(2_000)
    const on2 = await call(app, 'POST', `/_sandbox/push/devices/${never.registration_id}`, { online: true })
    expect(on2.body.delivered).toBe(0)
    const got = await received(app, 'alias=late')
    expect(got.map(m => m.registration_id)).toEqual([late.registration_id])
    expect(got[0]!.received_at).toBe(new Date(Date.parse('2026-01-01T00:00:59Z')).toISOString())
  })

  it('time_to_live 0 reaches online devices only', async () => {
    const { app } = await createTestApp()
    const off = await addDevice(app, { platform: 'ios', tags: ['zero'], online: false })
    await addDevice(app, { platform: 'ios', tags: ['zero'] })
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { tag: ['zero'] }, options: { time_to_live: 0 } }),
    )
    await call(app, 'PATCH', `/_sandbox/push/devices/${off.registration_id}`, { online: true })
    expect((await received(app, `msg_id=${res.body.msg_id}`)).length).toBe(1)
  })
})

describe('cid and override_msg_id', () => {
  it('a repeated cid returns the first result and pushes once', async () => {
    const { app } = await createTestApp()
    const cids = await call(app, 'GET', '/v3/push/cid?count=2')
    expect(cids.body.cidlist).toHaveLength(2)
    const cid = cids.body.cidlist[0]
    expect(cid).toMatch(new RegExp(`^${APP_KEY}-[0-9a-f-]{36}$`))
    const first = await call(app, 'POST', '/v3/push', pushBody({ cid, options: { sendno: 7 } }))
    const again = await call(app, 'POST', '/v3/push', pushBody({ cid, options: { sendno: 8 } }))
    expect(again.body).toEqual(first.body)
    expect(await received(app, `registration_id=${ANDROID_1}`)).toHaveLength(1)
  })

  it('cid count and type are checked (1003)', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/v3/push/cid?count=1001')).body.error.code).toBe(1003)
    expect((await call(app, 'GET', '/v3/push/cid?type=other')).body.error.code).toBe(1003)
    expect((await call(app, 'GET', '/v3/push/cid?type=schedule')).body.cidlist).toHaveLength(1)
  })

  it('override_msg_id works within one day only', async () => {
    const { app, clock } = await createTestApp()
    const first = await call(app, 'POST', '/v3/push', pushBody())
    const ok = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ options: { override_msg_id: first.body.msg_id } }),
    )
    expect(ok.status).toBe(200)
    clock.advance(86_400_001)
    const late = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ options: { override_msg_id: first.body.msg_id } }),
    )
    expect(late.body.error.code).toBe(1003)
  })

  it('validate delivers nothing', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push/validate', pushBody())
    expect(res.status).toBe(200)
    expect(res.body.msg_id).toMatch(/^\d{17}$/)
    expect(await received(app, '')).toEqual([])
  })
})

describe('sms_message fallback', () => {
  const sms = { delay_time: 60, temp_id: 2, temp_para: { order: 'A1', days: 3 } }

  it('texts the mobile when the push is not delivered within delay_time (scheduler tick)', async () => {
    const { app, clock } = await createTestApp()
    const d = await addDevice(app, { platform: 'android', mobile: '13900139000', online: false })
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [d.registration_id] }, sms_message: sms }),
    )
    clock.advance(59_000)
    await app.scheduler.tick()
    expect((await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139000')).body.messages).toEqual([])
    clock.advance(1_000)
    await app.scheduler.tick()
    const texts = (await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139000')).body.messages
    expect(texts).toHaveLength(1)
    expect(texts[0].content).toContain('A1')
  })

  it('moving the app clock through the sandbox fires the fallback at its due time', async () => {
    const { app } = await createTestApp()
    const d = await addDevice(app, { platform: 'android', mobile: '13900139002', online: false })
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [d.registration_id] }, sms_message: sms }),
    )
    const before = (await call(app, 'GET', '/_sandbox/clock')).body.now
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: 120_000 })).status).toBe(200)
    const texts = (await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139002')).body.messages
    expect(texts).toHaveLength(1)
    // Sent when it fell due (delay_time 60 s), not when the clock stopped.
    expect(Date.parse(texts[0].created_at)).toBe(before + 60_000)
  })

  it('no text when the device came online in time; the text goes at once with delay_time 0', async () => {
    const { app, clock } = await createTestApp()
    const d = await addDevice(app, { platform: 'android', mobile: '13900139001', online: false })
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [d.registration_id] }, sms_message: sms }),
    )
    clock.advance(30_000)
    await call(app, 'PATCH', `/_sandbox/push/devices/${d.registration_id}`, { online: true })
    clock.advance(60_000)
    await app.scheduler.tick()
    expect((await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139001')).body.messages).toEqual([])
    await call(
      app,
      'POST',
      '/v3/push',
      pushBody({
        audience: { registration_id: [d.registration_id] },
        sms_message: { delay_time: 0, content: 'hello by text' },
      }),
    )
    const texts = (await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139001')).body.messages
    expect(texts.map((t: { content: string }) => t.content)).toEqual(['【极光沙箱】hello by text'])
  })

  it('a device coming online after delay_time gets both, the text first', async () => {
    const { app, clock } = await createTestApp()
    const d = await addDevice(app, { platform: 'ios', mobile: '13900139002', online: false })
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ audience: { registration_id: [d.registration_id] }, sms_message: sms }),
    )
    clock.advance(120_000)
    await call(app, 'PATCH', `/_sandbox/push/devices/${d.registration_id}`, { online: true })
    expect((await call(app, 'GET', '/_sandbox/sms/messages?mobile=13900139002')).body.messages).toHaveLength(
      1,
    )
    expect(await received(app, `msg_id=${res.body.msg_id}`)).toHaveLength(1)
  })
})
