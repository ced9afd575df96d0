import { describe, expect, it } from 'vitest'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, IOS_2 } from './helpers.js'

describe('devices (jpush-api.md §7)', () => {
  it('GET a device; POST tags/alias/mobile; "" clears; {} and an empty body are accepted', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_1}`)).body).toEqual({
      tags: ['beta', 'tag1'],
      alias: 'alias1',
      mobile: '13800138000',
    })
    const upd = await call(app, 'POST', `/v3/devices/${ANDROID_1}`, {
      tags: { add: ['深圳', 'n@1'], remove: ['beta'] },
      alias: 'new_alias',
      mobile: '13900000000',
    })
    expect(upd.status).toBe(200)
    expect(upd.body).toEqual({})
    expect(upd.headers['content-type']).toMatch(/^application\/json/)
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_1}`)).body).toEqual({
      tags: ['n@1', 'tag1', '深圳'],
      alias: 'new_alias',
      mobile: '13900000000',
    })
    await call(app, 'POST', `/v3/devices/${ANDROID_1}`, { tags: '', alias: '', mobile: '' })
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_1}`)).body).toEqual({
      tags: [],
      alias: null,
      mobile: null,
    })
    expect((await call(app, 'POST', `/v3/devices/${ANDROID_1}`, {})).status).toBe(200)
    expect((await call(app, 'POST', `/v3/devices/${ANDROID_1}`)).status).toBe(200)
  })

  it.each([
    ['unknown registration_id', 'GET', '/v3/devices/0000aaaa', undefined, 7002],
    ['tags neither "" nor an object', 'POST', `/v3/devices/${ANDROID_1}`, { tags: ['x'] }, 7002],
    [
      'more than 100 tags in one operation',
      'POST',
      `/v3/devices/${ANDROID_1}`,
      { tags: { add: Array.from({ length: 101 }, (_, i) => `t${i}`) } },
      7002,
    ],
    ['a tag over 40 bytes', 'POST', `/v3/devices/${ANDROID_1}`, { tags: { add: ['x'.repeat(41)] } }, 7002],
    ['an alias with a forbidden character', 'POST', `/v3/devices/${ANDROID_1}`, { alias: 'a-b' }, 7002],
    ['a bad mobile', 'POST', `/v3/devices/${ANDROID_1}`, { mobile: 'call me' }, 7002],
    ['tag POST with neither add nor remove', 'POST', '/v3/tags/tag1', { registration_ids: {} }, 7002],
    [
      'tag POST with an unknown rid',
      'POST',
      '/v3/tags/tag1',
      { registration_ids: { add: ['0000aaaa'] } },
      7013,
    ],
    [
      'alias POST with an unknown rid',
      'POST',
      '/v3/aliases/alias1',
      { registration_ids: { remove: ['0000aaaa'] } },
      7013,
    ],
    ['tag membership of an unknown rid', 'GET', '/v3/tags/tag1/registration_ids/0000aaaa', undefined, 7002],
    ['an empty platform= on tag delete', 'DELETE', '/v3/tags/tag1?platform=', undefined, 7002],
    [
      'status of more than 1000 rids',
      'POST',
      '/v3/devices/status',
      { registration_ids: Array.from({ length: 1001 }, (_, i) => `r${i}`) },
      7002,
    ],
    ['a body that is not JSON', 'POST', `/v3/devices/${ANDROID_1}`, '{oops', 7002],
  ] as const)('%s → 400 %i', async (_name, method, url, body, code) => {
    const { app } = await createTestApp()
    const res = await call(app, method, url, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })

  it('an alias binds at most 10 devices (7015)', async () => {
    const { app } = await createTestApp()
    for (let i = 0; i < 10; i++) await addDevice(app, { platform: 'android', alias: 'crowd' })
    const res = await call(app, 'POST', `/v3/devices/${ANDROID_1}`, { alias: 'crowd' })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(7015)
    // The sandbox's device registration keeps the rule, in the control plane's words.
    expect(
      (await call(app, 'POST', '/_sandbox/push/devices', { platform: 'ios', alias: 'crowd' })).body.error,
    ).toEqual({
      code: 90020,
      message: '"alias": The alias is already bound to 10 devices',
    })
  })

  it('device status: online, offline with last_online_time, unknown → null', async () => {
    const { app, clock } = await createTestApp()
    await call(app, 'PATCH', `/_sandbox/push/devices/${IOS_2}`, { online: false })
    const res = await call(app, 'POST', '/v3/devices/status/', {
      registration_ids: [IOS_1, IOS_2, 'ffff0000'],
    })
    expect(res.body).toEqual({
      [IOS_1]: { online: true },
      [IOS_2]: { online: false, last_online_time: '2026-01-01 08:00:00' },
      ffff0000: null,
    })
    clock.advance(3 * 86_400_000)
    expect((await call(app, 'POST', '/v3/devices/status', { registration_ids: [IOS_2] })).body).toEqual({
      [IOS_2]: { online: false },
    })
  })
})

describe('tags and aliases', () => {
  it('list, membership (with the clients’ double and trailing slashes), add/remove, delete by platform', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/v3/tags/')).body).toEqual({ tags: ['beta', 'tag1', 'tag2', 'vip'] })
    expect((await call(app, 'GET', `/v3/tags//tag1/registration_ids/${ANDROID_1}`)).body).toEqual({
      result: true,
    })
    expect((await call(app, 'GET', `/v3/tags/nope/registration_ids/${ANDROID_1}`)).body).toEqual({
      result: false,
    })
    const add = await call(app, 'POST', '/v3/tags/fresh', {
      registration_ids: { add: [ANDROID_2, IOS_2], remove: [] },
    })
    expect(add.body).toEqual({})
    expect((await call(app, 'GET', `/v3/tags/fresh/registration_ids/${IOS_2}`)).body).toEqual({
      result: true,
    })
    expect((await call(app, 'DELETE', '/v3/tags//fresh/?platform=android')).status).toBe(200)
    expect((await call(app, 'GET', `/v3/tags/fresh/registration_ids/${ANDROID_2}`)).body).toEqual({
      result: false,
    })
    expect((await call(app, 'GET', `/v3/tags/fresh/registration_ids/${IOS_2}`)).body).toEqual({
      result: true,
    })
    expect((await call(app, 'DELETE', '/v3/tags/fresh')).body).toEqual({})
    expect((await call(app, 'DELETE', '/v3/tags/never_existed')).status).toBe(200)
    expect((await call(app, 'GET', '/v3/tags')).body.tags).not.toContain('fresh')
  })

  it('alias list (both formats), platform filter, unbind, delete', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/v3/aliases/alias1')).body).toEqual({
      registration_ids: [ANDROID_1, IOS_1],
    })
    expect((await call(app, 'GET', '/v3/aliases/alias1/?platform=ios')).body).toEqual({
      registration_ids: [IOS_1],
    })
    expect((await call(app, 'GET', '/v3/aliases/alias1?platform=ios&new_format=true')).body).toEqual({
      data: [{ registration_id: IOS_1, platform: 'ios', last_online_date: '2026-01-01' }],
    })
    expect((await call(app, 'GET', '/v3/aliases/nobody')).body).toEqual({ registration_ids: [] })
    await call(app, 'POST', '/v3/aliases/alias1', { registration_ids: { remove: [IOS_1] } })
    expect((await call(app, 'GET', '/v3/aliases/alias1')).body).toEqual({ registration_ids: [ANDROID_1] })
    expect((await call(app, 'DELETE', '/v3/aliases/alias1')).body).toEqual({})
    expect((await call(app, 'GET', '/v3/aliases/alias1')).body).toEqual({ registration_ids: [] })
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_1}`)).body.alias).toBeNull()
  })

  it('DELETE with an empty body and a JSON content type (python client) is fine', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({
      method: 'DELETE',
      url: '/v3/aliases/alias2',
      headers: {
        authorization: defaultAuth,
        'content-type': 'application/json;charset:utf-8',
        'content-length': '0',
      },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({})
  })
})

describe('sandbox devices', () => {
  it('creates, lists and validates devices', async () => {
    const { app } = await createTestApp()
    const d = await addDevice(app, { platform: 'hmos', tags: ['h'], mobile: '13700000000', online: false })
    expect(d).toMatchObject({ platform: 'hmos', tags: ['h'], mobile: '13700000000', online: false })
    expect(d.registration_id).toMatch(/^[0-9a-z]{19}$/)
    const list = (await call(app, 'GET', '/_sandbox/push/devices')).body.devices
    expect(list).toHaveLength(5)
    expect((await call(app, 'POST', '/_sandbox/push/devices', { platform: 'symbian' })).status).toBe(400)
    expect(
      (await call(app, 'POST', '/_sandbox/push/devices', { platform: 'ios', registration_id: ANDROID_1 }))
        .status,
    ).toBe(409)
    expect((await call(app, 'PATCH', '/_sandbox/push/devices/unknown00', { online: true })).status).toBe(404)
  })
})
