import http from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, MASTER_SECRET } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1 } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// The official Node SDK (npm jpush-async 4.2.0), unchanged, against the sandbox on a real port.
// It hard-codes https://api.jpush.cn and friends, so https.request is redirected to plain HTTP
// on 127.0.0.1, as sdk-wire-capture.md §2 describes.
const require = createRequire(import.meta.url)
const { JPushAsync: JPush } = require('jpush-async')

let t: { app: SandboxApp }
// biome-ignore lint/suspicious/noExplicitAny: the SDK is untyped CommonJS
let client: any
let restoreHttps: () => void

beforeAll(async () => {
  // Built here, not with createTestApp (which closes the app after every test): one server for all steps.
  t = { app: await buildApp(testConfig(), { clock: new ManualClock() }) }
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = t.app.server.address() as AddressInfo
  restoreHttps = redirectHttpsTo(port)
  client = JPush.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
})

afterAll(async () => {
  restoreHttps()
  await t.app.close()
})

describe.sequential('jpush-async drives the sandbox', () => {
  let msgId: string

  it('push: notification to an alias on android and ios', async () => {
    const res = await client
      .push()
      .setPlatform(JPush.ALL)
      .setAudience(JPush.alias('alias1'))
      .setNotification(
        'Hi',
        JPush.android('Parcel left', 'Courier', 1, { parcel: 77 }),
        JPush.ios('Parcel left', 'default', '+1'),
      )
      .setMessage('parcel:77', 'mt', 'text')
      .send()
    expect(res).toEqual({ sendno: expect.stringMatching(/^\d+$/), msg_id: expect.stringMatching(/^\d{17}$/) })
    msgId = res.msg_id
    const got = await t.app.inject({
      url: `/_sandbox/push/messages?msg_id=${msgId}`,
      headers: { authorization: auth() },
    })
    expect(
      got
        .json()
        .messages.map((m: { registration_id: string }) => m.registration_id)
        .sort(),
    ).toEqual([ANDROID_1, IOS_1].sort())
  })

  it('validate', async () => {
    const res = await client
      .push()
      .setPlatform('android')
      .setAudience(JPush.tag('tag2'))
      .setNotification('v')
      .sendValidate()
    expect(Object.keys(res)).toEqual(['sendno', 'msg_id'])
  })

  it('a push to nobody rejects with 1011', async () => {
    const err = await client
      .push()
      .setPlatform(JPush.ALL)
      .setAudience(JPush.tag('nobody'))
      .setNotification('x')
      .send()
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(JPush.APIRequestError)
    expect(JSON.parse(err.response).code).toBe(1011)
  })

  it('report: received (no query string reaches us: the latest push) and status/message', async () => {
    const pushed = await client
      .push()
      .setPlatform(JPush.ALL)
      .setAudience(JPush.registration_id(ANDROID_2))
      .setNotification('r')
      .send()
    const received = await client.getReportReceiveds(pushed.msg_id)
    expect(received).toEqual([expect.objectContaining({ msg_id: pushed.msg_id, android_received: 1 })])
    const detail = await client.getReportMessagesDetail(pushed.msg_id)
    expect(detail[0].jpush.received).toBe(1)
    const { res, err } = await client.getReportStatusMessage(msgId, [ANDROID_1, ANDROID_2])
    expect(err).toBeUndefined()
    expect(res).toEqual({ [ANDROID_1]: { status: 0 }, [ANDROID_2]: { status: 3 } })
  })

  it('devices, tags and aliases', async () => {
    const d = await addDevice(t.app, { platform: 'android' })
    const rid = d.registration_id
    expect(await client.updateDeviceTagAlias(rid, 'sdk_alias', false, ['sdk1', 'sdk2'], [])).toEqual({})
    expect(await client.setMobile(rid, '13811112222')).toEqual({})
    expect(await client.getDeviceTagAlias(rid)).toEqual({
      tags: ['sdk1', 'sdk2'],
      alias: 'sdk_alias',
      mobile: '13811112222',
    })
    expect((await client.getTagList()).tags).toEqual(expect.arrayContaining(['sdk1', 'sdk2']))
    expect(await client.isDeviceInTag('sdk1', rid)).toEqual({ result: true })
    expect(await client.addRemoveDevicesFromTag('sdk3', [rid], [])).toEqual({})
    expect(await client.deleteTag('sdk1')).toEqual({})
    expect(await client.isDeviceInTag('sdk1', rid)).toEqual({ result: false })
    expect(await client.getAliasDeviceList('sdk_alias')).toEqual({ registration_ids: [rid] })
    expect(await client.deleteAlias('sdk_alias')).toEqual({})
    expect(await client.getAliasDeviceList('sdk_alias')).toEqual({ registration_ids: [] })
    const { res } = await client.getDeviceStatus([rid])
    expect(res).toEqual({ [rid]: { online: true } })
    const err = await client.updateDeviceTagAlias('0000aaaa', 'x', false, [], []).catch((e: unknown) => e)
    expect(JSON.parse(err.response).code).toBe(7002)
  })
})

describe('raw HTTP quirks on the real port', () => {
  it('answers Expect: 100-continue, then the push', async () => {
    const { port } = t.app.server.address() as AddressInfo
    const body = JSON.stringify({
      platform: 'all',
      audience: 'all',
      notification: { alert: 'x'.repeat(1500) },
    })
    const res = await new Promise<{ status: number; text: string; continued: boolean }>((resolve, reject) => {
      let continued = false
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v3/push',
          headers: { authorization: auth(), expect: '100-continue' },
        },
        r => {
          let text = ''
          r.on('data', c => {
            text += c
          })
          r.on('end', () => resolve({ status: r.statusCode ?? 0, text, continued }))
        },
      )
      req.on('continue', () => {
        continued = true
        req.end(body)
      })
      req.on('error', reject)
    })
    expect(res.continued).toBe(true)
    expect(res.status).toBe(200)
    expect(JSON.parse(res.text)).toEqual({ sendno: '0', msg_id: expect.stringMatching(/^\d{17}$/) })
  })
})

function auth(): string {
  return `Basic ${Buffer.from(`${APP_KEY}:${MASTER_SECRET}`).toString('base64')}`
}
