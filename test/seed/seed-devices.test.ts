import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp } from '../helpers.js'

// Issue 30, part 1: a device's twin is set by its registration — the control plane, the UI, and
// the seed file (`apps[].devices`, replacing the four fixture devices), checked by the device
// API's rules when the file is read (push/device/seed.ts).

const APP = 'seeddevapp00000000000001'
const SECRET = 'seeddevsecret00000000001'
const auth = { authorization: basic(APP, SECRET) }

function seedFile(devices: unknown[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'seed-devices-')), 'seed.json')
  writeFileSync(path, JSON.stringify({ apps: [{ app_key: APP, master_secret: SECRET, devices }] }))
  return path
}

const DEVICES = [
  {
    registration_id: 'mi0000000000000001',
    platform: 'android',
    channel: 'xiaomi',
    tags: ['vip'],
    alias: 'ann',
  },
  { registration_id: 'plain0000000000001', platform: 'android', online: false },
  { registration_id: 'iosdev000000000001', platform: 'ios', apns_environment: 'development', tags: ['vip'] },
  { registration_id: 'hm0000000000000001', platform: 'hmos', mobile: '13800138000' },
]

describe('devices in the seed file', () => {
  it('replace the fixtures, each a twin with its defaults, and come back after a reset', async () => {
    const { app } = await createTestApp({ seedFile: seedFile(DEVICES) })
    const listed = async () =>
      (await call(app, 'GET', '/_sandbox/push/devices', undefined, auth)).body.devices
    const expected = [
      {
        registration_id: 'mi0000000000000001',
        platform: 'android',
        channel: 'xiaomi',
        apns_environment: null,
        alias: 'ann',
        tags: ['vip'],
        online: true,
      },
      {
        registration_id: 'plain0000000000001',
        platform: 'android',
        channel: null,
        alias: null,
        tags: [],
        online: false,
        last_online_time: null,
      },
      {
        registration_id: 'iosdev000000000001',
        platform: 'ios',
        channel: null,
        apns_environment: 'development',
        tags: ['vip'],
      },
      { registration_id: 'hm0000000000000001', platform: 'hmos', channel: 'hmos', mobile: '13800138000' },
    ]
    const before = await listed()
    expect(before).toHaveLength(4)
    expect(before).toMatchObject(expected)

    // The twin drives the route: Xiaomi's channel with ospush, the development build refuses production.
    const push = await call(
      app,
      'POST',
      '/v3/push',
      {
        platform: 'all',
        audience: { tag: ['vip'] },
        notification: { alert: 'hi' },
        options: {
          apns_production: true,
          third_party_channel: { xiaomi: { distribution: 'ospush', channel_id: 'c1' } },
        },
      },
      auth,
    )
    expect(push.status).toBe(200)
    const deliveries = await call(
      app,
      'GET',
      `/_sandbox/push/messages/${push.body.msg_id}/deliveries`,
      undefined,
      auth,
    )
    expect(deliveries.status).toBe(200)
    const byRid = Object.fromEntries(
      deliveries.body.deliveries.map((d: { registration_id: string; route: string; reason: string }) => [
        d.registration_id,
        [d.route, d.reason],
      ]),
    )
    expect(byRid).toEqual({
      mi0000000000000001: ['xiaomi', null],
      iosdev000000000001: [null, 'wrong-apns-environment'],
    })

    // The alias reaches its device through the vendor API too.
    const alias = await call(app, 'GET', '/v3/aliases/ann', undefined, auth)
    expect(alias.body.registration_ids).toEqual(['mi0000000000000001'])

    await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' }, auth)
    expect(await listed()).toHaveLength(5)
    expect((await call(app, 'POST', '/_sandbox/reset', undefined, auth)).status).toBe(200)
    expect(await listed()).toMatchObject(expected)
    expect(await listed()).toHaveLength(4)
  })

  it('an empty list leaves the app with no device: a push reaches nobody (1011)', async () => {
    const { app } = await createTestApp({ seedFile: seedFile([]) })
    expect((await call(app, 'GET', '/_sandbox/push/devices', undefined, auth)).body.devices).toEqual([])
    const push = await call(
      app,
      'POST',
      '/v3/push',
      { platform: 'all', audience: 'all', notification: { alert: 'x' } },
      auth,
    )
    expect(push.body.error.code).toBe(1011)
  })

  it.each([
    [
      [{ registration_id: 'bad-rid!', platform: 'android' }],
      /apps\.0\.devices\.0\.registration_id: must be 1 to 64 letters or digits/,
    ],
    [
      [
        { registration_id: 'a1', platform: 'android' },
        { registration_id: 'a1', platform: 'ios' },
      ],
      /apps\.0\.devices\.1\.registration_id: is given twice/,
    ],
    [
      [{ registration_id: 'a1', platform: 'ios', channel: 'xiaomi' }],
      /apps\.0\.devices\.0\.channel: xiaomi is not a channel of ios/,
    ],
    [
      [{ registration_id: 'a1', platform: 'android', apns_environment: 'production' }],
      /apps\.0\.devices\.0\.apns_environment: only an ios device has one/,
    ],
    [[{ registration_id: 'a1', platform: 'android', channel: 'nokia' }], /apps\.0\.devices\.0\.channel/],
    [
      [{ registration_id: 'a1', platform: 'android', tags: ['bad tag'] }],
      /apps\.0\.devices\.0\.tags\.0: must be at most 40 bytes/,
    ],
    [[{ registration_id: 'a1', platform: 'android', colour: 'red' }], /apps\.0\.devices\.0.*colour/],
    [
      Array.from({ length: 11 }, (_, i) => ({
        registration_id: `al${i}`,
        platform: 'android',
        alias: 'shared',
      })),
      /apps\.0\.devices\.10\.alias: "shared" is bound to more than 10 devices/,
    ],
  ])('a device the device API would refuse refuses the start, naming it (%#)', async (devices, message) => {
    await expect(createTestApp({ seedFile: seedFile(devices) })).rejects.toThrow(message)
  })

  it('more devices than MAX_DEVICES_PER_APP refuse the start', async () => {
    const devices = Array.from({ length: 3 }, (_, i) => ({ registration_id: `cap${i}`, platform: 'android' }))
    await expect(createTestApp({ seedFile: seedFile(devices), maxDevicesPerApp: 2 })).rejects.toThrow(
      /apps\.0\.devices: holds 3 devices, more than MAX_DEVICES_PER_APP \(2\)/,
    )
  })
})
