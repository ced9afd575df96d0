import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, MASTER_SECRET } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// The official Node SDK (npm jpush-async 4.2.0), unchanged, sent to the Beijing data centre's
// path shapes, as the python and php clients' BJ zones address it (jpush-api.md §1.1): the report
// host's /v3/… under /v3/report/…, the device host's /v3/devices under /v3/device and its
// /v3/tags, /v3/aliases under /v3/device/…. The push host's paths are the same in both.
const require = createRequire(import.meta.url)
const { JPushAsync: JPush } = require('jpush-async')

function beijing(host: string, path: string): string {
  if (host === 'report.jpush.cn') return path.replace(/^\/v3\//, '/v3/report/')
  if (host === 'device.jpush.cn')
    return path.replace(/^\/v3\/devices/, '/v3/device').replace(/^\/v3\/(tags|aliases)/, '/v3/device/$1')
  return path
}

let app: SandboxApp
// biome-ignore lint/suspicious/noExplicitAny: the SDK is untyped CommonJS
let client: any
let restoreHttps: () => void
/** The paths the client's requests were sent to. */
const sent: string[] = []

beforeAll(async () => {
  app = await buildApp(testConfig(), { clock: new ManualClock() })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  restoreHttps = redirectHttpsTo(port, (host, path) => {
    const to = beijing(host, path)
    sent.push(to)
    return to
  })
  client = JPush.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
})

afterAll(async () => {
  restoreHttps()
  await app.close()
})

describe.sequential('jpush-async at the Beijing paths', () => {
  it('report: received, received/detail, messages, messages/detail, status/message, users', async () => {
    const pushed = await client
      .push()
      .setPlatform(JPush.ALL)
      .setAudience(JPush.registration_id(ANDROID_2))
      .setNotification('bj')
      .send()
    expect(await client.getReportReceiveds(pushed.msg_id)).toEqual([
      expect.objectContaining({ msg_id: pushed.msg_id, android_received: 1 }),
    ])
    expect((await client.getReportReceivedDetail(pushed.msg_id))[0].jpush_received).toBe(1)
    expect((await client.getReportMessages(pushed.msg_id))[0].android.received).toBe(1)
    expect((await client.getReportMessagesDetail(pushed.msg_id))[0].jpush.received).toBe(1)
    const { res } = await client.getReportStatusMessage(pushed.msg_id, [ANDROID_2, ANDROID_1])
    expect(res).toEqual({ [ANDROID_2]: { status: 0 }, [ANDROID_1]: { status: 3 } })
    // Its query string never leaves the client (sdk-wire-capture.md §4.3): today, by day.
    const users = await client.getReportUsers('DAY', '2026-01-01', 1)
    expect(users).toMatchObject({ time_unit: 'DAY', start: '2026-01-01', duration: 1 })
    expect(users.items[0].android).toMatchObject({ new: 2, online: 2, active: 1 })
  })

  it('devices, tags and aliases', async () => {
    const rid = (await addDevice(app, { platform: 'android' })).registration_id
    expect(await client.updateDeviceTagAlias(rid, 'bj_alias', false, ['bj1', 'bj2'], [])).toEqual({})
    expect(await client.getDeviceTagAlias(rid)).toEqual({
      tags: ['bj1', 'bj2'],
      alias: 'bj_alias',
      mobile: null,
    })
    expect((await client.getTagList()).tags).toEqual(expect.arrayContaining(['bj1', 'bj2']))
    expect(await client.isDeviceInTag('bj1', rid)).toEqual({ result: true })
    expect(await client.addRemoveDevicesFromTag('bj3', [rid], [])).toEqual({})
    expect(await client.deleteTag('bj1')).toEqual({})
    expect(await client.isDeviceInTag('bj1', rid)).toEqual({ result: false })
    expect(await client.getAliasDeviceList('bj_alias')).toEqual({ registration_ids: [rid] })
    expect(await client.deleteAlias('bj_alias')).toEqual({})
    expect((await client.getDeviceStatus([rid])).res).toEqual({ [rid]: { online: true } })
  })

  it('sent every report and device call to a Beijing path', () => {
    const hosts = sent.filter(p => !p.startsWith('/v3/push'))
    expect(hosts.length).toBeGreaterThanOrEqual(16)
    for (const path of hosts) expect(path).toMatch(/^\/v3\/(report|device)\//)
    expect(sent).toEqual(
      expect.arrayContaining([
        '/v3/report/users',
        '/v3/device/status/',
        '/v3/device/tags/',
        `/v3/device/tags//bj1`,
        '/v3/device/aliases/bj_alias',
      ]),
    )
  })
})
