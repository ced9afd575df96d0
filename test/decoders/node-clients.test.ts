import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, MASTER_SECRET } from '../helpers.js'
import { ANDROID_1, IOS_1 } from '../push/helpers.js'
import { redirectHttpsTo } from '../push/https-redirect.js'
import { joinGroup } from './catalogue.js'
import { send } from './decoder.js'

// The decoders of the official Node clients, run through their own calls against the sandbox on a
// real port (as test/push/jpush-async.test.ts and jpush-sdk.test.ts do), read from the packages in
// node_modules:
//   npm jpush-async 4.2.0 (lib/JPush/JPushAsync.js, lib/JPush/Request2.js, lib/JPush/JPushError.js)
//   npm jpush-sdk 3.5.0   (lib/JPush/JPush.js, lib/JPush/JPushError.js)
//
// For every call: an armed fault (429 2002 with a message naming the call) must come back in the
// client's error object with that code and that message, then the call must succeed.
//
// jpush-async: Request2.js:33-41 settles on the first `data` chunk, JSON-parsed when the
// Content-Type says application/json, resolving on exactly 200 and rejecting with the body
// otherwise; JPushAsync.js:323-367 `_request` then reads `err.error.code` (a top-level `error`
// object is needed, or a TypeError escapes) and throws APIRequestError(err.statusCode,
// JSON.stringify(err.error)) (JPushError.js:19-26): `response` is the `error` object alone and
// `httpCode` is undefined (statusCode is read off the parsed body, which has none). Its paths are
// URL.pathname only (Request2.js:28): query strings never reach us.
//
// jpush-sdk: JPush.js:251-319 `_request`: exactly 200 parses the body (an empty one gives 200);
// anything else is APIRequestError(res.statusCode, body): the HTTP status and the raw body.

const require = createRequire(import.meta.url)
const { JPushAsync } = require('jpush-async')
const JPushSdk = require('jpush-sdk')

const GROUP = { key: 'decodergroup000000000001', secret: 'decodergroupsecret000001' }

let app: SandboxApp
let restoreHttps: () => void
// biome-ignore lint/suspicious/noExplicitAny: the SDKs are untyped CommonJS
let asyncClient: any
// biome-ignore lint/suspicious/noExplicitAny: the SDKs are untyped CommonJS
let sdkClient: any

beforeAll(async () => {
  // One server for all steps (createTestApp would close it after each test).
  app = await buildApp(testConfig(), { clock: new ManualClock() })
  await app.listen({ port: 0, host: '127.0.0.1' })
  restoreHttps = redirectHttpsTo((app.server.address() as AddressInfo).port)
  asyncClient = JPushAsync.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET, isDebug: false })
  sdkClient = JPushSdk.buildClient({ appKey: APP_KEY, masterSecret: MASTER_SECRET })
  await joinGroup(app)
})

afterAll(async () => {
  restoreHttps()
  await app.close()
})

/** Arms 429 2002 on one route, with a message that names the call, and returns that message. */
async function arm(method: string, path: string): Promise<string> {
  const message = `decoder fault on ${method} ${path}`
  const res = await send(app, {
    method: 'POST',
    url: '/_sandbox/faults',
    body: { method, path, code: 2002, message },
  })
  if (res.status !== 200) throw new Error(`fault refused: ${res.raw}`)
  return message
}

/** jpush-sdk's callback (err, body) as a promise. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's answers are untyped JSON
function sdk(invoke: (cb: (err: unknown, body: unknown) => void) => void): Promise<any> {
  return new Promise((resolve, reject) => invoke((err, body) => (err ? reject(err) : resolve(body))))
}

interface NodeCall {
  /** The route the call reaches, and the path a fault is armed on. */
  method: string
  path: () => string
  // biome-ignore lint/suspicious/noExplicitAny: the SDKs' answers are untyped JSON
  run: () => Promise<any>
  /** What the success answer must decode to. */
  value: (v: unknown) => void
  /** Calls that resolve `{res}` / `{err}` instead of rejecting (getReportStatusMessage, getDeviceStatus). */
  settled?: boolean
}

const state = { msgId: '', scheduleId: '', rid: ANDROID_1 }
const is = (shape: Record<string, unknown>) => (v: unknown) => expect(v).toEqual(shape)
const has = (shape: Record<string, unknown>) => (v: unknown) => expect(v).toMatchObject(shape)
const list = (v: unknown) => expect(Array.isArray(v) && v.length > 0).toBe(true)
const SINGLE = '2026-01-02 10:00:00'

describe.sequential('jpush-async: the error object carries the code and message the sandbox sent', () => {
  const asyncPush = () =>
    asyncClient
      .push()
      .setPlatform(JPushAsync.ALL)
      .setAudience(JPushAsync.registration_id(ANDROID_1))
      .setNotification('d')
  const calls: Array<[string, NodeCall]> = [
    [
      'push().send (PushPayloadAsync.js send, JPushAsync.js:89-91)',
      {
        method: 'POST',
        path: () => '/v3/push',
        run: async () => {
          const r = await asyncPush().send()
          state.msgId = r.msg_id
          return r
        },
        value: is({ sendno: expect.any(String), msg_id: expect.stringMatching(/^\d+$/) }),
      },
    ],
    [
      'push().sendValidate (JPushAsync.js:250-252)',
      {
        method: 'POST',
        path: () => '/v3/push/validate',
        run: () => asyncPush().sendValidate(),
        value: is({ sendno: expect.any(String), msg_id: expect.any(String) }),
      },
    ],
    [
      'getReportReceiveds (JPushAsync.js:93-100)',
      {
        method: 'GET',
        path: () => '/v3/received',
        run: () => asyncClient.getReportReceiveds(state.msgId),
        value: list,
      },
    ],
    [
      'getReportReceivedDetail (JPushAsync.js:102-109)',
      {
        method: 'GET',
        path: () => '/v3/received/detail',
        run: () => asyncClient.getReportReceivedDetail(state.msgId),
        value: list,
      },
    ],
    [
      'getReportStatusMessage (JPushAsync.js:111-130)',
      {
        method: 'POST',
        path: () => '/v3/status/message',
        run: () => asyncClient.getReportStatusMessage(state.msgId, [ANDROID_1]),
        value: is({ res: { [ANDROID_1]: expect.any(Object) } }),
        settled: true,
      },
    ],
    [
      'getReportMessages (JPushAsync.js:132-139)',
      {
        method: 'GET',
        path: () => '/v3/messages',
        run: () => asyncClient.getReportMessages(state.msgId),
        value: list,
      },
    ],
    [
      'getReportMessagesDetail (JPushAsync.js:141-148)',
      {
        method: 'GET',
        path: () => '/v3/messages/detail',
        run: () => asyncClient.getReportMessagesDetail(state.msgId),
        value: list,
      },
    ],
    [
      // JPushAsync.js:150-153 builds ?time_unit=…, which Request2.js:28 never sends: the sandbox
      // reads no query as today, by day (src/push/report/users.ts, sdk-wire-capture.md §4.3).
      'getReportUsers (JPushAsync.js:150-153)',
      {
        method: 'GET',
        path: () => '/v3/users',
        run: () => asyncClient.getReportUsers('DAY', '2026-01-01', 1),
        value: has({ time_unit: 'DAY', items: expect.any(Array) }),
      },
    ],
    [
      'getDeviceTagAlias (JPushAsync.js:160-163)',
      {
        method: 'GET',
        path: () => `/v3/devices/${state.rid}`,
        run: () => asyncClient.getDeviceTagAlias(state.rid),
        value: has({ tags: expect.any(Array) }),
      },
    ],
    [
      'setMobile (JPushAsync.js:166-172)',
      {
        method: 'POST',
        path: () => `/v3/devices/${state.rid}`,
        run: () => asyncClient.setMobile(state.rid, '13800138009'),
        value: is({}),
      },
    ],
    [
      'updateDeviceTagAlias (JPushAsync.js:174-199)',
      {
        method: 'POST',
        path: () => `/v3/devices/${state.rid}`,
        run: () => asyncClient.updateDeviceTagAlias(state.rid, 'decoder_alias', false, ['decoder_tag'], []),
        value: is({}),
      },
    ],
    [
      'getTagList (JPushAsync.js:201-204)',
      {
        method: 'GET',
        path: () => '/v3/tags',
        run: () => asyncClient.getTagList(),
        value: has({ tags: expect.any(Array) }),
      },
    ],
    [
      'isDeviceInTag (JPushAsync.js:206-209, /v3/tags//…)',
      {
        method: 'GET',
        path: () => `/v3/tags/decoder_tag/registration_ids/${state.rid}`,
        run: () => asyncClient.isDeviceInTag('decoder_tag', state.rid),
        value: is({ result: true }),
      },
    ],
    [
      'addRemoveDevicesFromTag (JPushAsync.js:211-224)',
      {
        method: 'POST',
        path: () => '/v3/tags/decoder_tag',
        run: () => asyncClient.addRemoveDevicesFromTag('decoder_tag', [IOS_1], []),
        value: is({}),
      },
    ],
    [
      'getAliasDeviceList (JPushAsync.js:234-240)',
      {
        method: 'GET',
        path: () => '/v3/aliases/decoder_alias',
        run: () => asyncClient.getAliasDeviceList('decoder_alias'),
        value: is({ registration_ids: [ANDROID_1] }),
      },
    ],
    [
      'getDeviceStatus (JPushAsync.js:312-319)',
      {
        method: 'POST',
        path: () => '/v3/devices/status',
        run: () => asyncClient.getDeviceStatus([ANDROID_1]),
        value: is({ res: { [ANDROID_1]: expect.any(Object) } }),
        settled: true,
      },
    ],
    [
      'deleteTag (JPushAsync.js:226-232)',
      {
        method: 'DELETE',
        path: () => '/v3/tags/decoder_tag',
        run: () => asyncClient.deleteTag('decoder_tag', null),
        value: is({}),
      },
    ],
    [
      'deleteAlias (JPushAsync.js:242-248)',
      {
        method: 'DELETE',
        path: () => '/v3/aliases/decoder_alias',
        run: () => asyncClient.deleteAlias('decoder_alias', null),
        value: is({}),
      },
    ],
    [
      'push().setSchedule (PushPayloadAsync.js:515, JPushAsync.js:256-258)',
      {
        method: 'POST',
        path: () => '/v3/schedules',
        run: async () => {
          const r = await asyncPush().setSingleSchedule(SINGLE).setSchedule('decoder_async', true)
          state.scheduleId = r.schedule_id
          return r
        },
        value: is({ schedule_id: expect.any(String), name: 'decoder_async' }),
      },
    ],
    [
      'push().updateSchedule (PushPayloadAsync.js:539, JPushAsync.js:260-263)',
      {
        method: 'PUT',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () =>
          asyncPush().setSingleSchedule(SINGLE).updateSchedule(state.scheduleId, 'decoder_async2', true),
        value: has({ schedule_id: expect.any(String), name: 'decoder_async2' }),
      },
    ],
    [
      'getScheduleList (JPushAsync.js:266-272)',
      {
        method: 'GET',
        path: () => '/v3/schedules',
        run: () => asyncClient.getScheduleList(1),
        value: has({ page: 1, schedules: expect.any(Array) }),
      },
    ],
    [
      'getSchedule (JPushAsync.js:275-281)',
      {
        method: 'GET',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () => asyncClient.getSchedule(state.scheduleId),
        value: has({ name: 'decoder_async2' }),
      },
    ],
    [
      'delSchedule (JPushAsync.js:284-290)',
      {
        method: 'DELETE',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () => asyncClient.delSchedule(state.scheduleId),
        value: is({}),
      },
    ],
  ]

  it.each(calls)('%s', async (_name, c) => {
    const message = await arm(c.method, c.path())
    const failed = c.settled
      ? (await c.run()).err
      : await c.run().then(
          () => undefined,
          (e: unknown) => e,
        )
    expect(failed).toBeInstanceOf(JPushAsync.APIRequestError)
    // `response` is JSON.stringify(err.error): the nested object as the sandbox sent it.
    expect(JSON.parse(failed.response)).toEqual({ code: 2002, message })
    expect(failed.httpCode).toBeUndefined()
    c.value(await c.run())
  })

  it('group push (isGroup: /v3/grouppush): a wrong group secret is 1004 in the error object', async () => {
    const group = JPushAsync.buildClient({
      appKey: GROUP.key,
      masterSecret: 'ffffffffffffffffffffffff',
      isDebug: false,
      isGroup: true,
    })
    const push = () =>
      group
        .push()
        .setPlatform(JPushAsync.ALL)
        .setAudience(JPushAsync.registration_id(ANDROID_1))
        .setNotification('g')
        .send()
    const failed = await push().catch((e: unknown) => e)
    expect(JSON.parse(failed.response)).toEqual({ code: 1004, message: expect.any(String) })
    const right = JPushAsync.buildClient({
      appKey: GROUP.key,
      masterSecret: GROUP.secret,
      isDebug: false,
      isGroup: true,
    })
    const res = await right
      .push()
      .setPlatform(JPushAsync.ALL)
      .setAudience(JPushAsync.registration_id(ANDROID_1))
      .setNotification('g')
      .send()
    expect(res).toMatchObject({ group_msgid: expect.any(String) })
  })
})

describe.sequential('jpush-sdk: the error object carries the status and the body the sandbox sent', () => {
  const sdkPush = () =>
    sdkClient
      .push()
      .setPlatform(JPushSdk.ALL)
      .setAudience(JPushSdk.registration_id(ANDROID_1))
      .setNotification('d')
  const calls: Array<[string, NodeCall]> = [
    [
      'push().send (JPush.js:81-83)',
      {
        method: 'POST',
        path: () => '/v3/push',
        run: async () => {
          const r = await sdk(cb => sdkPush().send(cb))
          state.msgId = r.msg_id
          return r
        },
        value: is({ sendno: expect.any(String), msg_id: expect.stringMatching(/^\d+$/) }),
      },
    ],
    [
      'push().sendValidate (JPush.js:203-205)',
      {
        method: 'POST',
        path: () => '/v3/push/validate',
        run: () => sdk(cb => sdkPush().sendValidate(cb)),
        value: is({ sendno: expect.any(String), msg_id: expect.any(String) }),
      },
    ],
    [
      'getReportReceiveds (JPush.js:85-92)',
      {
        method: 'GET',
        path: () => '/v3/received',
        run: () => sdk(cb => sdkClient.getReportReceiveds(state.msgId, cb)),
        value: list,
      },
    ],
    [
      'getReportMessages (JPush.js:94-101)',
      {
        method: 'GET',
        path: () => '/v3/messages',
        run: () => sdk(cb => sdkClient.getReportMessages(state.msgId, cb)),
        value: list,
      },
    ],
    [
      'getReportUsers (JPush.js:103-106)',
      {
        method: 'GET',
        path: () => '/v3/users',
        run: () => sdk(cb => sdkClient.getReportUsers('DAY', '2026-01-01', 1, cb)),
        value: has({ time_unit: 'DAY', items: expect.any(Array) }),
      },
    ],
    [
      'getDeviceTagAlias (JPush.js:113-116)',
      {
        method: 'GET',
        path: () => `/v3/devices/${state.rid}`,
        run: () => sdk(cb => sdkClient.getDeviceTagAlias(state.rid, cb)),
        value: has({ tags: expect.any(Array) }),
      },
    ],
    [
      'setMobile (JPush.js:119-125)',
      {
        method: 'POST',
        path: () => `/v3/devices/${state.rid}`,
        run: () => sdk(cb => sdkClient.setMobile(state.rid, '13800138009', cb)),
        value: is({}),
      },
    ],
    [
      'updateDeviceTagAlias (JPush.js:127-152)',
      {
        method: 'POST',
        path: () => `/v3/devices/${state.rid}`,
        run: () =>
          sdk(cb =>
            sdkClient.updateDeviceTagAlias(state.rid, 'decoder_alias', false, ['decoder_tag'], [], cb),
          ),
        value: is({}),
      },
    ],
    [
      'getTagList (JPush.js:154-157)',
      {
        method: 'GET',
        path: () => '/v3/tags',
        run: () => sdk(cb => sdkClient.getTagList(cb)),
        value: has({ tags: expect.any(Array) }),
      },
    ],
    [
      'isDeviceInTag (JPush.js:159-162)',
      {
        method: 'GET',
        path: () => `/v3/tags/decoder_tag/registration_ids/${state.rid}`,
        run: () => sdk(cb => sdkClient.isDeviceInTag('decoder_tag', state.rid, cb)),
        value: is({ result: true }),
      },
    ],
    [
      'addRemoveDevicesFromTag (JPush.js:164-177)',
      {
        method: 'POST',
        path: () => '/v3/tags/decoder_tag',
        run: () => sdk(cb => sdkClient.addRemoveDevicesFromTag('decoder_tag', [IOS_1], [], cb)),
        value: is({}),
      },
    ],
    [
      'getAliasDeviceList (JPush.js:187-193)',
      {
        method: 'GET',
        path: () => '/v3/aliases/decoder_alias',
        run: () => sdk(cb => sdkClient.getAliasDeviceList('decoder_alias', null, cb)),
        value: is({ registration_ids: [ANDROID_1] }),
      },
    ],
    [
      'deleteTag (JPush.js:179-185)',
      {
        method: 'DELETE',
        path: () => '/v3/tags/decoder_tag',
        run: () => sdk(cb => sdkClient.deleteTag('decoder_tag', null, cb)),
        value: is({}),
      },
    ],
    [
      'deleteAlias (JPush.js:195-201)',
      {
        method: 'DELETE',
        path: () => '/v3/aliases/decoder_alias',
        run: () => sdk(cb => sdkClient.deleteAlias('decoder_alias', null, cb)),
        value: is({}),
      },
    ],
    [
      'push().setSchedule (PushPayload.js:530, JPush.js:209-211)',
      {
        method: 'POST',
        path: () => '/v3/schedules',
        run: async () => {
          const r = await sdk(cb => sdkPush().setSingleSchedule(SINGLE).setSchedule('decoder_sdk', true, cb))
          state.scheduleId = r.schedule_id
          return r
        },
        value: is({ schedule_id: expect.any(String), name: 'decoder_sdk' }),
      },
    ],
    [
      // push().updateSchedule (PushPayload.js:554-580) throws TypeError before sending in 3.5.0 (it
      // calls JUtil.isEmptyObject, which util.js lacks): the client's own updateSchedule is used.
      'updateSchedule (JPush.js:213-216)',
      {
        method: 'PUT',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () =>
          sdk(cb => sdkClient.updateSchedule(state.scheduleId, JSON.stringify({ name: 'decoder_sdk2' }), cb)),
        value: has({ name: 'decoder_sdk2' }),
      },
    ],
    [
      'getScheduleList (JPush.js:219-225)',
      {
        method: 'GET',
        path: () => '/v3/schedules',
        run: () => sdk(cb => sdkClient.getScheduleList(1, cb)),
        value: has({ page: 1, schedules: expect.any(Array) }),
      },
    ],
    [
      'getSchedule (JPush.js:228-234)',
      {
        method: 'GET',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () => sdk(cb => sdkClient.getSchedule(state.scheduleId, cb)),
        value: has({ name: 'decoder_sdk2' }),
      },
    ],
    [
      'delSchedule (JPush.js:237-243)',
      {
        method: 'DELETE',
        path: () => `/v3/schedules/${state.scheduleId}`,
        run: () => sdk(cb => sdkClient.delSchedule(state.scheduleId, cb)),
        value: is({}),
      },
    ],
  ]

  it.each(calls)('%s', async (_name, c) => {
    const message = await arm(c.method, c.path())
    const failed = await c.run().then(
      () => undefined,
      (e: unknown) => e as { httpCode: unknown; response: string },
    )
    expect(failed).toBeInstanceOf(JPushSdk.APIRequestError)
    expect(failed?.httpCode).toBe(429)
    expect(JSON.parse(failed?.response ?? 'null')).toEqual({ error: { code: 2002, message } })
    c.value(await c.run())
  })
})
