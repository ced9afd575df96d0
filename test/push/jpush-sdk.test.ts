import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, call, MASTER_SECRET } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, received } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'

// The official callback SDK (npm jpush-sdk 3.5.0, on the `request` library), unchanged, against
// the sandbox on a real port. What it sends and how it reads answers: sdk-wire-capture.md §4.4.
const require = createRequire(import.meta.url)
const JPush = require('jpush-sdk')

let app: SandboxApp
let restoreHttps: () => void
// biome-ignore lint/suspicious/noExplicitAny: the SDK is untyped CommonJS
let client: any

/** The SDK's callback (err, body) as a promise; the SDK rejects with APIRequestError on non-200. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's answers are untyped JSON
function sdk(invoke: (cb: (err: unknown, body: unknown) => void) => void): Promise<any> {
  return new Promise((resolve, reject) => invoke((err, body) => (err ? reject(err) : resolve(body))))
}

/** The APIRequestError a call ends with, its raw body parsed. */
async function failure(invoke: (cb: (err: unknown, body: unknown) => void) => void) {
  const err = await sdk(invoke).then(
    body => {
      throw new Error(`expected a failure, got ${JSON.stringify(body)}`)
    },
    (e: unknown) => e as { httpCode: number; response: string },
  )
  expect(err).toBeInstanceOf(JPush.APIRequestError)
  return { httpCode: err.httpCode, body: JSON.parse(err.response) }
}

const ridsOf = (messages: Array<Record<string, unknown>>) => messages.map(m => m.registration_id).sort()

beforeAll(async () => {
  // One server for all steps (createTestApp would close it after each test).
  app = await buildApp(testConfig(), { clock: new ManualClock() })
  await app.listen({ port: 0, host: '127.0.0.1' })
  restoreHttps = redirectHttpsTo((app.server.address() as AddressInfo).port)
  client = JPush.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET })
})

afterAll(async () => {
  restoreHttps()
  await app.close()
})

describe.sequential('jpush-sdk drives the sandbox', () => {
  let aliasMsgId: string

  it('push: notification to an alias, with options and our sendno', async () => {
    const res = await sdk(cb =>
      client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.alias('alias1'))
        .setNotification(
          'Hi',
          JPush.android('Parcel left', 'Courier', 1, { parcel: 77 }),
          JPush.ios('Parcel left'),
        )
        .setOptions(4242, 60, null, false)
        .send(cb),
    )
    expect(res).toEqual({ sendno: '4242', msg_id: expect.stringMatching(/^\d{17}$/) })
    aliasMsgId = res.msg_id
    const got = await received(app, `msg_id=${aliasMsgId}`)
    expect(ridsOf(got)).toEqual([ANDROID_1, IOS_1].sort())
    expect(got.find(m => m.registration_id === ANDROID_1)?.notification).toMatchObject({
      alert: 'Parcel left',
      title: 'Courier',
    })
  })

  it('push: notification and message to a registration_id, default options', async () => {
    const res = await sdk(cb =>
      client
        .push()
        .setPlatform('android')
        .setAudience(JPush.registration_id(ANDROID_2))
        .setNotification('r')
        .setMessage('parcel:78', 'mt', 'text')
        .send(cb),
    )
    // The SDK picks a random numeric sendno when none is given (PushPayload.toJSON).
    expect(res).toEqual({ sendno: expect.stringMatching(/^\d+$/), msg_id: expect.stringMatching(/^\d{17}$/) })
    const got = await received(app, `msg_id=${res.msg_id}`)
    expect(got).toEqual([
      expect.objectContaining({
        registration_id: ANDROID_2,
        message: expect.objectContaining({ msg_content: 'parcel:78' }),
      }),
    ])
  })

  it('validate: answers like a push and delivers nothing', async () => {
    const before = (await received(app, '')).length
    const res = await sdk(cb =>
      client
        .push()
        .setPlatform('android')
        .setAudience(JPush.tag('tag2'))
        .setNotification('v')
        .sendValidate(cb),
    )
    expect(Object.keys(res)).toEqual(['sendno', 'msg_id'])
    expect((await received(app, '')).length).toBe(before)
  })

  it('a push that matches nobody: httpCode 400 and the 1011 body', async () => {
    const { httpCode, body } = await failure(cb =>
      client.push().setPlatform(JPush.ALL).setAudience(JPush.tag('nobody')).setNotification('x').send(cb),
    )
    expect(httpCode).toBe(400)
    expect(body).toEqual({
      msg_id: expect.stringMatching(/^\d+$/),
      error: { code: 1011, message: expect.stringContaining('cannot find user') },
    })
  })

  it('report: received follows what the sandbox delivered (msg_ids kept in the query)', async () => {
    const offline = await addDevice(app, { platform: 'android', online: false })
    const pushed = await sdk(cb =>
      client
        .push()
        .setPlatform('android')
        .setAudience(JPush.registration_id([ANDROID_2, offline.registration_id]))
        .setNotification('later')
        .send(cb),
    )
    expect(ridsOf(await received(app, `msg_id=${pushed.msg_id}`))).toEqual([ANDROID_2])
    const first = await sdk(cb => client.getReportReceiveds(`${pushed.msg_id},${aliasMsgId}`, cb))
    expect(first).toEqual([
      expect.objectContaining({ msg_id: pushed.msg_id, android_received: 1, ios_apns_received: null }),
      expect.objectContaining({ msg_id: aliasMsgId, android_received: 1, ios_apns_received: 1 }),
    ])

    // The phone comes online: the sandbox delivers, and the report counts it.
    const woke = await call(app, 'PATCH', `/_sandbox/push/devices/${offline.registration_id}`, {
      online: true,
    })
    expect(woke.body).toMatchObject({ delivered: 1 })
    expect(ridsOf(await received(app, `msg_id=${pushed.msg_id}`))).toEqual(
      [ANDROID_2, offline.registration_id].sort(),
    )
    const later = await sdk(cb => client.getReportReceiveds(pushed.msg_id, cb))
    expect(later).toEqual([expect.objectContaining({ msg_id: pushed.msg_id, android_received: 2 })])
  })

  it('report: a malformed msg_ids list is 3002', async () => {
    // The SDK refuses non-numeric ids itself, so an empty item is the only bad list it can send.
    const { httpCode, body } = await failure(cb => client.getReportReceiveds(',', cb))
    expect(httpCode).toBe(400)
    expect(body.error.code).toBe(3002)
  })

  it('report: users by hour (its query kept, the space in start unencoded), and 3004', async () => {
    const users = await sdk(cb => client.getReportUsers('HOUR', '2026-01-01 08', 2, cb))
    expect(users).toMatchObject({ time_unit: 'HOUR', start: '2026-01-01 08', duration: 2 })
    // The four fixtures and the offline phone of the received test registered at 08:00.
    expect(users.items[0]).toMatchObject({ time: '2026-01-01 08', android: { new: 3 }, ios: { new: 2 } })
    const { httpCode, body } = await failure(cb => client.getReportUsers('MONTH', '2026-01-01', 1, cb))
    expect([httpCode, body.error.code]).toEqual([400, 3004])
  })

  it('report: messages counts the devices that opened a push', async () => {
    await call(app, 'POST', `/_sandbox/push/messages/${aliasMsgId}/clicks`, { registration_id: IOS_1 })
    const [messages] = await sdk(cb => client.getReportMessages(aliasMsgId, cb))
    expect(messages.ios.click).toBe(1)
  })

  it('device: tags add/remove, alias and mobile, then read back', async () => {
    const { registration_id: rid } = await addDevice(app, { platform: 'android' })
    expect(
      await sdk(cb => client.updateDeviceTagAlias(rid, 'sdk_alias', false, ['sdk1', 'sdk2'], [], cb)),
    ).toEqual({})
    expect(await sdk(cb => client.setMobile(rid, '13811112222', cb))).toEqual({})
    expect(await sdk(cb => client.getDeviceTagAlias(rid, cb))).toEqual({
      tags: ['sdk1', 'sdk2'],
      alias: 'sdk_alias',
      mobile: '13811112222',
    })
    expect(await sdk(cb => client.updateDeviceTagAlias(rid, null, false, ['sdk3'], ['sdk2'], cb))).toEqual({})
    expect(await sdk(cb => client.getDeviceTagAlias(rid, cb))).toMatchObject({
      tags: ['sdk1', 'sdk3'],
      alias: 'sdk_alias',
    })
    const { httpCode, body } = await failure(cb => client.getDeviceTagAlias('0000aaaa', cb))
    expect(httpCode).toBe(400)
    expect(body.error.code).toBe(7002)
  })

  it('tags: list, membership, add/remove, delete with platform', async () => {
    const { registration_id: rid } = await addDevice(app, { platform: 'android', tags: ['sdk_t1'] })
    expect((await sdk(cb => client.getTagList(cb))).tags).toEqual(
      expect.arrayContaining(['tag1', 'tag2', 'sdk_t1']),
    )
    expect(await sdk(cb => client.isDeviceInTag('sdk_t1', rid, cb))).toEqual({ result: true })
    expect(await sdk(cb => client.isDeviceInTag('tag1', rid, cb))).toEqual({ result: false })

    expect(await sdk(cb => client.addRemoveDevicesFromTag('sdk_t2', [rid, IOS_1], [], cb))).toEqual({})
    expect(await sdk(cb => client.isDeviceInTag('sdk_t2', IOS_1, cb))).toEqual({ result: true })
    expect(await sdk(cb => client.addRemoveDevicesFromTag('sdk_t2', [], [IOS_1], cb))).toEqual({})
    expect(await sdk(cb => client.isDeviceInTag('sdk_t2', IOS_1, cb))).toEqual({ result: false })

    // DELETE /v3/tags/{tag}/?platform=…: only the named platforms lose the tag.
    expect(await sdk(cb => client.deleteTag('sdk_t1', 'ios', cb))).toEqual({})
    expect(await sdk(cb => client.isDeviceInTag('sdk_t1', rid, cb))).toEqual({ result: true })
    expect(await sdk(cb => client.deleteTag('sdk_t1', 'android,ios', cb))).toEqual({})
    expect(await sdk(cb => client.isDeviceInTag('sdk_t1', rid, cb))).toEqual({ result: false })
    expect(await sdk(cb => client.deleteTag('sdk_t2', null, cb))).toEqual({})
    expect((await sdk(cb => client.getTagList(cb))).tags).not.toEqual(expect.arrayContaining(['sdk_t2']))
  })

  it('aliases: get with and without platform, delete with platform', async () => {
    expect(await sdk(cb => client.getAliasDeviceList('alias1', null, cb))).toEqual({
      registration_ids: expect.arrayContaining([ANDROID_1, IOS_1]),
    })
    expect(await sdk(cb => client.getAliasDeviceList('alias1', 'android', cb))).toEqual({
      registration_ids: [ANDROID_1],
    })
    const { registration_id: rid } = await addDevice(app, { platform: 'android', alias: 'sdk_a1' })
    expect(await sdk(cb => client.deleteAlias('sdk_a1', 'ios', cb))).toEqual({})
    expect(await sdk(cb => client.getAliasDeviceList('sdk_a1', 'android,ios', cb))).toEqual({
      registration_ids: [rid],
    })
    expect(await sdk(cb => client.deleteAlias('sdk_a1', 'android,ios', cb))).toEqual({})
    expect(await sdk(cb => client.getAliasDeviceList('sdk_a1', null, cb))).toEqual({ registration_ids: [] })
  })

  it('a wrong master secret is httpCode 401 on every host, each with its own code', async () => {
    const wrong = JPush.buildClient({ appKey: APP_KEY, masterSecret: 'ffffffffffffffffffffffff' })
    const pushed = await failure(cb =>
      wrong.push().setPlatform(JPush.ALL).setAudience(JPush.alias('alias1')).setNotification('x').send(cb),
    )
    expect(pushed).toEqual({ httpCode: 401, body: { error: { code: 1004, message: expect.any(String) } } })
    expect((await failure(cb => wrong.getTagList(cb))).body.error.code).toBe(7004)
    expect((await failure(cb => wrong.getReportReceiveds('1', cb))).body.error.code).toBe(3001)
  })
})
