import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, ANDROID_2, IOS_1, IOS_2, received } from './helpers.js'

// Test devices and test mode (docs/jpush-wire.md "Test devices"), with the bytes of cav's Go SDK
// (device/v3_*_test_device*.go: encoding/json, TestDeviceAddParam's order), the only SDK that
// calls them; answers checked against its result types (TestDeviceAddResult: only `error`;
// TestDevicesListResult: total, page, page_size, detail[]).

const add = (app: Parameters<typeof call>[0], name: string, rid: string) =>
  call(app, 'POST', '/v3/test/model/add', `{"device_name":"${name}","registration_id":"${rid}"}`)

const DETAIL_KEYS = ['device_name', 'device_model', 'registration_id', 'registration_time', 'create_time']

describe('/v3/test/model', () => {
  it('add, list, update, delete', async () => {
    const { app } = await createTestApp()
    expect(await add(app, 'QA Pixel', ANDROID_1)).toMatchObject({ status: 200, body: {} })
    expect((await add(app, 'QA iPhone', IOS_1)).status).toBe(200)

    const list = await call(app, 'GET', '/v3/test/model/list')
    expect(list.body).toEqual({
      total: 2,
      page: 1,
      page_size: 200,
      detail: [
        {
          device_name: 'QA Pixel',
          device_model: 'android',
          registration_id: ANDROID_1,
          registration_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
          create_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        },
        expect.objectContaining({ device_name: 'QA iPhone', registration_id: IOS_1 }),
      ],
    })
    expect(Object.keys(list.body.detail[0])).toEqual(DETAIL_KEYS)
    // ListTestDevices(ctx, 1, 1, "iPhone", ""): a page, a name filter.
    const page = await call(app, 'GET', '/v3/test/model/list?page=1&page_size=1&device_name=iPhone')
    expect(page.body).toMatchObject({ total: 1, page: 1, page_size: 1, detail: [{ registration_id: IOS_1 }] })
    const one = await call(app, 'GET', `/v3/test/model/list?registration_id=${ANDROID_1}`)
    expect(one.body.detail.map((d: { registration_id: string }) => d.registration_id)).toEqual([ANDROID_1])

    const renamed = await call(
      app,
      'PUT',
      '/v3/test/model/update',
      `{"device_name":"QA Pixel 8","registration_id":"${ANDROID_1}"}`,
    )
    expect([renamed.status, renamed.body]).toEqual([200, {}])
    expect((await call(app, 'DELETE', `/v3/test/model/delete/${IOS_1}`)).body).toEqual({})
    const after = await call(app, 'GET', '/v3/test/model/list')
    expect(after.body.detail.map((d: { device_name: string }) => d.device_name)).toEqual(['QA Pixel 8'])
    // The control plane shows the same.
    expect((await call(app, 'GET', '/_sandbox/push/test-devices')).body.test_devices).toEqual([
      expect.objectContaining({ registration_id: ANDROID_1, device_name: 'QA Pixel 8', platform: 'android' }),
    ])
  })

  it.each([
    [
      'a device the app does not have',
      () => `{"device_name":"x","registration_id":"1a00000000000000abc"}`,
      "registration_id '1a00000000000000abc' is invalid",
    ],
    ['no device_name', () => `{"registration_id":"${ANDROID_1}"}`, 'device_name is required'],
    ['no registration_id', () => '{"device_name":"x"}', 'registration_id is required'],
  ])('add with %s: 400 7002', async (_what, body, message) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/test/model/add', body())
    expect([res.status, res.body]).toEqual([400, { error: { code: 7002, message } }])
  })

  it('a device added twice, or updated without being one, is 7002', async () => {
    const { app } = await createTestApp()
    await add(app, 'a', ANDROID_1)
    expect((await add(app, 'a', ANDROID_1)).body.error).toEqual({
      code: 7002,
      message: `registration_id ${ANDROID_1} is already a test device`,
    })
    const res = await call(app, 'PUT', '/v3/test/model/update', {
      device_name: 'b',
      registration_id: ANDROID_2,
    })
    expect(res.body.error).toEqual({
      code: 7002,
      message: `registration_id ${ANDROID_2} is not a test device`,
    })
  })
})

describe('options.test_model', () => {
  it('reaches only the test devices of the audience, counted as those', async () => {
    const { app } = await createTestApp()
    await add(app, 'a', ANDROID_1)
    await add(app, 'i', IOS_2)
    const res = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'only for QA' },
      options: { test_model: true },
    })
    expect(res.status, res.raw).toBe(200)
    const got = await received(app, `msg_id=${res.body.msg_id}`)
    expect(got.map(m => m.registration_id).sort()).toEqual([ANDROID_1, IOS_2].sort())
    const stats = await call(app, 'GET', `/v3/received/detail?msg_ids=${res.body.msg_id}`)
    expect(stats.body[0]).toMatchObject({ jpush_received: 1, ios_apns_received: 1 })
  })

  it('is no broadcast: the day’s broadcasts are not used by it', async () => {
    const { app } = await createTestApp()
    await add(app, 'a', ANDROID_1)
    await call(app, 'PATCH', '/_sandbox/app', { settings: { broadcasts_per_day: 1 } })
    const test = {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'qa' },
      options: { test_model: true },
    }
    expect((await call(app, 'POST', '/v3/push', test)).status).toBe(200)
    expect((await call(app, 'POST', '/v3/push', test)).status).toBe(200)
    expect((await call(app, 'POST', '/v3/push', { ...test, options: {} })).status).toBe(200)
    expect((await call(app, 'POST', '/v3/push', { ...test, options: {} })).body.error.code).toBe(2008)
  })

  it('an audience with no test device in it is 1011; a test_model that is no boolean is 1003', async () => {
    const { app } = await createTestApp()
    await add(app, 'a', ANDROID_1)
    const res = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: { registration_id: [ANDROID_2] },
      notification: { alert: 'x' },
      options: { test_model: true },
    })
    expect([res.status, res.body.error.code, res.body.msg_id]).toEqual([
      400,
      1011,
      expect.stringMatching(/^\d{17}$/),
    ])
    const bad = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'x' },
      options: { test_model: 'yes' },
    })
    expect(bad.body.error).toEqual({ code: 1003, message: "'test_model' value is invalid." })
  })
})
