import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { APP_KEY, call, MASTER_SECRET } from '../helpers.js'
import { ANDROID_1 } from './helpers.js'
import { redirectHttpsTo } from './https-redirect.js'
import { advance, at, DAY, firings } from './schedule-helpers.js'

// The schedule calls of the official Node SDKs (npm jpush-async 4.2.0 and jpush-sdk 3.5.0),
// unchanged, against the sandbox on a real port (https.request redirected: https-redirect.ts).
// Neither exposes GET …/msg_ids (jpush-async defines it but leaves it off the client).
const require = createRequire(import.meta.url)
const { JPushAsync } = require('jpush-async')
const JPushSdk = require('jpush-sdk')

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
})

afterAll(async () => {
  restoreHttps()
  await app.close()
})

/** jpush-sdk's callback (err, body) as a promise. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's answers are untyped JSON
function sdk(invoke: (cb: (err: unknown, body: unknown) => void) => void): Promise<any> {
  return new Promise((resolve, reject) => invoke((err, body) => (err ? reject(err) : resolve(body))))
}

const asyncPush = () =>
  asyncClient
    .push()
    .setPlatform(JPushAsync.ALL)
    .setAudience(JPushAsync.registration_id(ANDROID_1))
    .setNotification('Hi')

describe.sequential('jpush-async: the schedule calls', () => {
  let single: string

  it('setSingleSchedule + setSchedule: {schedule_id, name}', async () => {
    const res = await asyncPush().setSingleSchedule('2026-01-01 09:00:00').setSchedule('async_single', true)
    expect(Object.keys(res)).toEqual(['schedule_id', 'name'])
    expect(res.name).toBe('async_single')
    single = res.schedule_id
  })

  it('setPeriodicalSchedule (lower-case week points) + setSchedule', async () => {
    const res = await asyncPush()
      .setPeriodicalSchedule('2026-01-01 08:00:00', '2026-03-01 00:00:00', '12:00:00', 'week', 2, [
        'wed',
        'fri',
      ])
      .setSchedule('async_weekly', true)
    const got = await asyncClient.getSchedule(res.schedule_id)
    expect(got.trigger.periodical).toEqual({
      start: '2026-01-01 08:00:00',
      end: '2026-03-01 00:00:00',
      time: '12:00:00',
      time_unit: 'week',
      frequency: 2,
      point: ['wed', 'fri'],
    })
    // The SDK adds options.sendno and apns_production to the push (sdk-wire-capture.md §4.3).
    expect(got.push.options).toEqual({ sendno: expect.any(Number), apns_production: false })
  })

  it('getScheduleList (its page never reaches us: page 1) and getSchedule', async () => {
    const list = await asyncClient.getScheduleList(1)
    expect(list).toMatchObject({ total_count: 2, total_pages: 1, page: 1 })
    expect((await asyncClient.getSchedule(single)).name).toBe('async_single')
  })

  it('updateSchedule: a new trigger and name; the task fires then, once', async () => {
    const res = await asyncClient
      .push()
      .setSingleSchedule('2026-01-01 10:00:00')
      .updateSchedule(single, 'async_renamed', null)
    expect(res).toMatchObject({ schedule_id: single, name: 'async_renamed', enabled: true })
    await advance(app, 2 * 3_600_000 + 1)
    expect((await firings(app, single)).map(f => f.ts)).toEqual([at('2026-01-01 10:00:00')])
  })

  it('getSchedule of an unknown id rejects with 8104', async () => {
    const err = await asyncClient.getSchedule('00000000-0000-0000-0000-000000000000').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(JPushAsync.APIRequestError)
    expect(JSON.parse(err.response).code).toBe(8104)
  })

  it('delSchedule settles (a JSON body, not an empty one) and the task is gone', async () => {
    expect(await asyncClient.delSchedule(single)).toEqual({})
    expect((await call(app, 'GET', `/v3/schedules/${single}`)).status).toBe(404)
  })
})

describe.sequential('jpush-sdk: the schedule calls', () => {
  let id: string

  it('setPeriodicalSchedule (day) + setSchedule, then it fires daily', async () => {
    const res = await sdk(cb =>
      sdkClient
        .push()
        .setPlatform(JPushSdk.ALL)
        .setAudience(JPushSdk.registration_id(ANDROID_1))
        .setNotification('daily')
        .setPeriodicalSchedule('2026-01-01 00:00:00', '2026-02-01 00:00:00', '18:00:00', 'DAY', 1, null)
        .setSchedule('sdk_daily', true, cb),
    )
    expect(res).toEqual({ schedule_id: expect.any(String), name: 'sdk_daily' })
    id = res.schedule_id
    const now = (await call(app, 'GET', '/_sandbox/clock')).body.now
    await advance(app, at('2026-01-03 18:00:00') - now)
    expect((await firings(app, id)).map(f => f.ts)).toEqual(
      ['01', '02', '03'].map(d => at(`2026-01-${d} 18:00:00`)),
    )
  })

  it('getScheduleList, getSchedule, updateSchedule (disable)', async () => {
    const list = await sdk(cb => sdkClient.getScheduleList(1, cb))
    expect(list.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toContain(id)
    expect((await sdk(cb => sdkClient.getSchedule(id, cb))).name).toBe('sdk_daily')
    // push().updateSchedule() throws in 3.5.0 before sending (it calls JUtil.isEmptyObject, which
    // its util.js lacks): the client's own updateSchedule(id, body) is what it would have called.
    expect(() => sdkClient.push().updateSchedule(id, null, false, () => {})).toThrow(/isEmptyObject/)
    const updated = await sdk(cb => sdkClient.updateSchedule(id, JSON.stringify({ enabled: false }), cb))
    expect(updated.enabled).toBe(false)
    await advance(app, DAY)
    expect(await firings(app, id)).toHaveLength(3)
  })

  it('an unknown id fails with APIRequestError 404 and 8104; delSchedule answers {}', async () => {
    const err = await sdk(cb => sdkClient.getSchedule('nope', cb)).catch(
      (e: unknown) => e as { httpCode: number; response: string },
    )
    expect(err).toBeInstanceOf(JPushSdk.APIRequestError)
    expect(err.httpCode).toBe(404)
    expect(JSON.parse(err.response).error.code).toBe(8104)
    expect(await sdk(cb => sdkClient.delSchedule(id, cb))).toEqual({})
  })
})
