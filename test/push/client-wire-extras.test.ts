import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, call, defaultAuth, MASTER_SECRET } from '../helpers.js'
import { parseResponse, rawExchange } from '../http/raw-socket.js'
import { ANDROID_1, ANDROID_2, IOS_1 } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// Issue 14's endpoints as official clients put them on the wire, where no other test does:
// jpush-async's batch push, its users report on the default host, the report paths and queries
// of python, ruby and php (php's h2c upgrade offer on a raw socket), and the bodiless GET and
// DELETE calls with a JSON Content-Type that php, java and jpush-sdk send (sdk-wire-capture.md).

const require = createRequire(import.meta.url)
const { JPush, JPushAsync } = require('jpush-async')
// The transport both of jpush-async's APIs send through (sdk-wire-capture.md §4.3).
const Request2 = require('jpush-async/lib/JPush/Request2.js')

let app: SandboxApp
let port: number
let restoreHttps: () => void

beforeAll(async () => {
  app = await buildApp(testConfig(), { clock: new ManualClock() })
  await app.listen({ port: 0, host: '127.0.0.1' })
  port = (app.server.address() as AddressInfo).port
  restoreHttps = redirectHttpsTo(port)
})

afterAll(async () => {
  restoreHttps()
  await app.close()
})

const seen = async (msgId: string) =>
  (await call(app, 'GET', `/_sandbox/push/messages?msg_id=${msgId}`)).body.messages.map(
    (m: { registration_id: string }) => m.registration_id,
  )

describe('jpush-async 4.2.0', () => {
  // batchPushByRegid/ByAlias exist only in its callback API `JPush`, which crashes on every GET
  // answer before the batch is sent (its APIRequestError reads `null.toString()`, §4.3): no
  // application can batch push with it, against JiGuang or us. What its batchPush would send
  // goes here through its own Request2: GET /v3/push/cid?count=N (the query is dropped, so one
  // cid comes back), then {"pushlist":{<cid>: payload, "undefined": payload…}}, the payloads of
  // its examples/BatchPushExample.js.
  it('batch push as its batchPush builds it: one cid, then the pushlist', async () => {
    const client = JPush.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
    const send = (url: string, method: string, body: unknown) =>
      Request2(client, url, { method, body, timeout: client.readTimeOut })
    for (const [kind, target, devices] of [
      ['regid', ANDROID_2, [ANDROID_2]],
      ['alias', 'alias1', [ANDROID_1, IOS_1]],
    ] as const) {
      const { cidlist } = await send('https://api.jpush.cn/v3/push/cid?count=2&type=push', 'GET', null)
      expect(cidlist).toEqual([expect.stringMatching(new RegExp(`^${APP_KEY}-`))])
      const payloads = [0, 1].map(() => ({ platform: 'all', target, notification: { alert: 'alert title' } }))
      const body: { pushlist: Record<string, unknown> } = { pushlist: {} }
      payloads.forEach((p, i) => {
        body.pushlist[cidlist[i]] = p
      })
      const res = await send(`https://api.jpush.cn/v3/push/batch/${kind}/single`, 'POST', body)
      expect(res).toEqual({
        [cidlist[0]]: { msg_id: expect.stringMatching(/^\d{17}$/) },
        // The key its missing cid becomes: refused alone, as any key that is not a cid of the app.
        undefined: { error: { code: 1003, message: 'cid is invalid' } },
      })
      expect((await seen(res[cidlist[0]].msg_id)).sort()).toEqual([...devices].sort())
    }
  })

  it('JPushAsync getReportUsers on the default host: no query reaches us, so today by day', async () => {
    const client = JPushAsync.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
    const users = await client.getReportUsers('MONTH', '2025-12', 2)
    expect(users).toMatchObject({ time_unit: 'DAY', start: '2026-01-01', duration: 1 })
    expect(users.items[0].android).toMatchObject({ new: 2, online: 2 })
  })
})

describe('the report paths and queries of python, ruby and php', () => {
  const PY = {
    'content-type': 'application/json;charset:utf-8',
    accept: '*/*',
    'user-agent': 'jpush-api-python-client',
  }

  it.each([
    // python report.get_users: requests' params, so the space of an HOUR start is `+`.
    ['python', '/v3/users?time_unit=HOUR&start=2026-01-01+08&duration=2', PY, ['HOUR', '2026-01-01 08', 2]],
    // ruby report.rb: `/v3//users` (jpush-api.md §1.2).
    ['ruby', '/v3//users?time_unit=DAY&start=2026-01-01&duration=1', {}, ['DAY', '2026-01-01', 1]],
    // php: a trailing slash before the query, a JSON Content-Type on a GET (§1.2, §4.6).
    [
      'php',
      '/v3/users/?time_unit=MONTH&start=2026-01&duration=1',
      { 'content-type': 'application/json' },
      ['MONTH', '2026-01', 1],
    ],
  ] as const)('%s: GET %s', async (_client, url, headers, [timeUnit, start, duration]) => {
    const res = await call(app, 'GET', url, undefined, headers)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({ time_unit: timeUnit, start, duration })
    expect(res.body.items).toHaveLength(duration)
  })

  it("php's h2c upgrade offer and second Connection line are answered in HTTP/1.1", async () => {
    const request =
      'GET /v3/users?time_unit=DAY&start=2026-01-01&duration=1 HTTP/1.1\r\n' +
      'Host: report.jpush.cn\r\n' +
      `Authorization: ${defaultAuth}\r\n` +
      'User-Agent: JPush-API-PHP-Client\r\n' +
      'Accept: */*\r\n' +
      'Connection: Upgrade, HTTP2-Settings\r\n' +
      'Upgrade: h2c\r\n' +
      'HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n' +
      'Content-Type: application/json\r\n' +
      'Connection: Keep-Alive\r\n\r\n'
    const res = parseResponse(await rawExchange(port, request))
    expect(res.status).toBe(200)
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(JSON.parse(res.body)).toMatchObject({ time_unit: 'DAY', start: '2026-01-01', duration: 1 })
  })
})

describe('bodiless GET and DELETE with a JSON Content-Type (php, java, jpush-sdk)', () => {
  const JAVA = {
    'user-agent': 'JPush-API-Java-Client',
    'accept-charset': 'UTF-8',
    charset: 'UTF-8',
    'content-type': 'application/json',
  }

  it('quota (java), a file read and deleted (java), a push withdrawn (php, jpush-sdk)', async () => {
    const quota = await call(app, 'GET', '/v3/push/quota', undefined, JAVA)
    expect([quota.status, quota.body.code, quota.body.data.xiaomi_quota.system]).toEqual([
      200,
      0,
      { total: -1, used: -1 },
    ])
    const missing = `${APP_KEY}-00000000-0000-4000-8000-000000000000`
    expect((await call(app, 'GET', `/v3/files/${missing}`, undefined, JAVA)).body.error.code).toBe(1003)
    const deleted = await call(app, 'DELETE', `/v3/files/${missing}`, undefined, JAVA)
    expect([deleted.status, deleted.raw]).toEqual([200, '{}'])
    for (const headers of [{ 'content-type': 'application/json' }, { ...JAVA, 'content-length': '0' }]) {
      const pushed = await call(app, 'POST', '/v3/push', {
        platform: 'all',
        audience: { registration_id: [ANDROID_1] },
        notification: { alert: 'hi' },
      })
      const withdrawn = await call(app, 'DELETE', `/v3/push/${pushed.body.msg_id}`, undefined, headers)
      expect([withdrawn.status, withdrawn.raw]).toEqual([200, '{}'])
    }
  })
})
