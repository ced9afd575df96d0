import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { ANDROID_1, ANDROID_2, IOS_1, pushBody, rate } from './helpers.js'

// The Beijing data centre's path shapes (jpush-api.md §1.1; the python and php clients' BJ zones:
// DEVICE /v3/device/, TAG /v3/device/tags/, ALIAS /v3/device/aliases/, REPORT /v3/report/) are
// the same operations as the default hosts' paths, on any host: same answers, codes and windows.

/** Python jpush 3.3.9's headers (sdk-wire-capture.md §4.2), as it sends them in zone 'BJ'. */
const PYTHON = {
  'user-agent': 'jpush-api-python-client',
  connection: 'keep-alive',
  'content-type': 'application/json;charset:utf-8',
  accept: '*/*',
  'accept-encoding': 'gzip, deflate',
}

async function pushed(app: SandboxApp): Promise<string> {
  const res = await call(
    app,
    'POST',
    '/v3/push',
    pushBody({ audience: { registration_id: [ANDROID_1, IOS_1] } }),
  )
  return res.body.msg_id
}

describe('Beijing paths answer what the default paths answer', () => {
  it.each([
    ['GET', '/v3/device/:rid', '/v3/devices/:rid', undefined],
    ['POST', '/v3/device/status', '/v3/devices/status', { registration_ids: [ANDROID_1, IOS_1] }],
    ['POST', '/v3/device/status/', '/v3/devices/status/', { registration_ids: [ANDROID_2] }],
    ['GET', '/v3/device/tags', '/v3/tags', undefined],
    ['GET', '/v3/device/tags/', '/v3/tags/', undefined],
    ['GET', '/v3/device/tags/tag1/registration_ids/:rid', '/v3/tags/tag1/registration_ids/:rid', undefined],
    [
      'GET',
      '/v3/device/aliases/alias1?platform=android,ios',
      '/v3/aliases/alias1?platform=android,ios',
      undefined,
    ],
    ['GET', '/v3/device/aliases/alias1?new_format=true', '/v3/aliases/alias1?new_format=true', undefined],
    ['GET', '/v3/report/received?msg_ids=:id', '/v3/received?msg_ids=:id', undefined],
    ['GET', '/v3/report/received/detail?msg_ids=:id', '/v3/received/detail?msg_ids=:id', undefined],
    ['GET', '/v3/report/messages?msg_ids=:id', '/v3/messages?msg_ids=:id', undefined],
    ['GET', '/v3/report/messages/detail?msg_ids=:id', '/v3/messages/detail?msg_ids=:id', undefined],
    [
      'POST',
      '/v3/report/status/message',
      '/v3/status/message',
      { msg_id: ':id', registration_ids: [ANDROID_1] },
    ],
    [
      'GET',
      '/v3/report/users?time_unit=DAY&start=2026-01-01&duration=2',
      '/v3/users?time_unit=DAY&start=2026-01-01&duration=2',
      undefined,
    ],
  ] as const)('%s %s', async (method, beijing, standard, body) => {
    const { app } = await createTestApp()
    const id = await pushed(app)
    const fill = (s: string) => s.replaceAll(':rid', ANDROID_1).replaceAll(':id', id)
    const payload = body === undefined ? undefined : JSON.parse(fill(JSON.stringify(body)))
    const bj = await call(app, method, fill(beijing), payload, { host: 'bjapi.push.jiguang.cn' })
    const std = await call(app, method, fill(standard), payload)
    expect(bj.status).toBe(200)
    expect(bj.body).toEqual(std.body)
    expect(bj.body).not.toEqual({})
  })

  it('device, tag and alias writes through the Beijing paths', async () => {
    const { app } = await createTestApp()
    const write = (method: 'POST' | 'DELETE', url: string, body?: unknown) =>
      call(app, method, url, body).then(r => [r.status, r.body])
    expect(
      await write('POST', `/v3/device/${ANDROID_2}`, { alias: 'bj_user', tags: { add: ['bj'] } }),
    ).toEqual([200, {}])
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_2}`)).body).toMatchObject({ alias: 'bj_user' })
    expect(await write('POST', '/v3/device/tags/bj2', { registration_ids: { add: [ANDROID_2] } })).toEqual([
      200,
      {},
    ])
    expect((await call(app, 'GET', `/v3/tags/bj2/registration_ids/${ANDROID_2}`)).body).toEqual({
      result: true,
    })
    expect(await write('DELETE', '/v3/device/tags/bj2?platform=android')).toEqual([200, {}])
    expect((await call(app, 'GET', `/v3/tags/bj2/registration_ids/${ANDROID_2}`)).body).toEqual({
      result: false,
    })
    expect(
      await write('POST', '/v3/device/aliases/bj_user', { registration_ids: { remove: [ANDROID_2] } }),
    ).toEqual([200, {}])
    expect(await write('DELETE', '/v3/device/aliases/alias1')).toEqual([200, {}])
    expect((await call(app, 'GET', '/v3/aliases/alias1')).body).toEqual({ registration_ids: [] })
    expect((await call(app, 'GET', '/v3/aliases/bj_user')).body).toEqual({ registration_ids: [] })
  })
})

describe('Beijing paths belong to their group', () => {
  it('its auth, method and parameter codes', async () => {
    const { app } = await createTestApp()
    const none = { authorization: '' }
    expect((await call(app, 'GET', `/v3/device/${ANDROID_1}`, undefined, none)).body.error.code).toBe(7001)
    expect((await call(app, 'GET', '/v3/report/received', undefined, none)).body.error.code).toBe(3001)
    const [devicePut, reportPut] = [
      await call(app, 'PUT', '/v3/device/tags'),
      await call(app, 'PUT', '/v3/report/users'),
    ]
    expect([devicePut.status, devicePut.body.error.code]).toEqual([405, 7002])
    expect([reportPut.status, reportPut.body.error.code]).toEqual([405, 3002])
    const bad = await call(app, 'GET', '/v3/device/tags/a%20b/registration_ids/x')
    expect(bad.body).toEqual((await call(app, 'GET', '/v3/tags/a%20b/registration_ids/x')).body)
    expect(
      (await call(app, 'GET', '/v3/report/users?time_unit=DAY&start=2026-01&duration=1')).body.error.code,
    ).toBe(3004)
  })

  it('one rate window with the default paths, per group', async () => {
    const { app } = await createTestApp()
    const seq = [
      ['/v3/devices/status', '600', '599'],
      ['/v3/device/status', '600', '598'],
      ['/v3/report/received?msg_ids=1', '2400', '2399'],
      ['/v3/received?msg_ids=1', '2400', '2398'],
      ['/v3/report/users?time_unit=DAY&start=2026-01-01&duration=1', '2400', '2397'],
    ]
    for (const [url, limit, remaining] of seq) {
      const res = await call(app, url!.includes('status') ? 'POST' : 'GET', url!, {
        registration_ids: [ANDROID_1],
      })
      expect(rate(res.headers).slice(0, 2), url).toEqual([limit, remaining])
    }
  })

  it("the app's own device limit covers both shapes (429 2002)", async () => {
    const { app } = await createTestApp()
    const own = app.store.apps.get(APP_KEY)!
    app.store.apps.updateSettings({ ...own, settings: { rate_limits: { device: 2 } } })
    expect((await call(app, 'GET', '/v3/tags')).status).toBe(200)
    expect((await call(app, 'GET', '/v3/device/tags')).status).toBe(200)
    const over = await call(app, 'GET', `/v3/device/${ANDROID_1}`)
    expect([over.status, over.body.error.code]).toEqual([429, 2002])
    expect((await call(app, 'GET', '/v3/report/received?msg_ids=1')).status).toBe(200)
  })
})

describe('the python client in its BJ zone, byte for byte (sdk-wire-capture.md §4.2)', () => {
  it('device, tag, alias and report calls', async () => {
    const { app } = await createTestApp()
    const id = await pushed(app)
    const send = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: string) =>
      call(app, method, url, payload, PYTHON)
    expect((await send('GET', `/v3/device/${ANDROID_1}`)).body).toMatchObject({ alias: 'alias1' })
    expect(
      (
        await send(
          'POST',
          `/v3/device/${ANDROID_2}`,
          '{"tags": {"add": ["t1", "t2"], "remove": ["t3"]}, "alias": "alias9"}',
        )
      ).status,
    ).toBe(200)
    expect((await send('GET', '/v3/device/tags/')).body.tags).toEqual(expect.arrayContaining(['t1', 't2']))
    expect((await send('GET', `/v3/device/tags/t1/registration_ids/${ANDROID_2}`)).body).toEqual({
      result: true,
    })
    expect((await send('DELETE', '/v3/device/tags/t1?platform=android%2Cios')).status).toBe(200)
    expect((await send('GET', '/v3/device/aliases/alias9?platform=android%2Cios')).body).toEqual({
      registration_ids: [ANDROID_2],
    })
    expect((await send('POST', '/v3/device/status', `{"registration_ids": ["${ANDROID_1}"]}`)).body).toEqual({
      [ANDROID_1]: { online: true },
    })
    expect((await send('GET', `/v3/report/received?msg_ids=${id}%2C1`)).body).toHaveLength(2)
    expect((await send('GET', `/v3/report/received/detail?msg_ids=${id}`)).body[0].msg_id).toBe(id)
    expect((await send('GET', `/v3/report/messages?msg_ids=${id}`)).body[0].android.received).toBe(1)
    expect((await send('GET', `/v3/report/messages/detail?msg_ids=${id}`)).body[0].jpush.received).toBe(1)
    expect(
      (await send('POST', '/v3/report/status/message', `{"msg_id": ${id}, "registration_ids": ["${IOS_1}"]}`))
        .body,
    ).toEqual({ [IOS_1]: { status: 0 } })
    expect(
      (await send('GET', '/v3/report/users?time_unit=DAY&start=2026-01-01&duration=1')).body.items,
    ).toHaveLength(1)
    expect((await send('DELETE', '/v3/device/aliases/alias9')).status).toBe(200)
  })
})
