import { describe, expect, it } from 'vitest'
import { APP_KEY, basic, call, createTestApp, newKey } from '../helpers.js'
import { ANDROID_1, ANDROID_2, addDevice, IOS_1, IOS_2, pushBody, rate } from './helpers.js'

// GET /v3/users (jpush-api.md §6.5), from what the app's devices did, in Beijing periods. The test
// clock starts at 2026-01-01T00:00Z, 08:00 in Beijing; the four fixture devices register then.

const HOUR = 3_600_000
const DAY = 24 * HOUR

const users = async (app: Parameters<typeof call>[0], query: string) => call(app, 'GET', `/v3/users?${query}`)

describe('user statistics', () => {
  it('by day: new, online and active per platform, moving with the clock', async () => {
    const { app, clock } = await createTestApp()
    // Day 1: a fifth device registers offline; ANDROID_1 receives a push.
    const late = await addDevice(app, { platform: 'android', online: false })
    await call(app, 'POST', '/v3/push', pushBody())
    // Day 2, 08:00: IOS_2 goes offline, the fifth device comes online; IOS_1 receives and opens a push.
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: DAY })
    await call(app, 'PATCH', `/_sandbox/push/devices/${IOS_2}`, { online: false })
    await call(app, 'PATCH', `/_sandbox/push/devices/${late.registration_id}`, { online: true })
    const id = (await call(app, 'POST', '/v3/push', pushBody({ audience: { registration_id: [IOS_1] } })))
      .body.msg_id
    clock.advance(HOUR)
    await call(app, 'POST', `/_sandbox/push/messages/${id}/clicks`, { registration_id: IOS_1 })
    // Day 3, 09:00: nothing happens. Day 4 has not come yet.
    clock.advance(DAY)
    const res = await users(app, 'time_unit=DAY&start=2026-01-01&duration=4')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      time_unit: 'DAY',
      start: '2026-01-01',
      duration: 4,
      items: [
        {
          time: '2026-01-01',
          android: { new: 3, online: 2, active: 1 },
          ios: { new: 2, online: 2 },
        },
        { time: '2026-01-02', android: { online: 3 }, ios: { online: 2, active: 1 } },
        { time: '2026-01-03', android: { online: 3 }, ios: { online: 1 } },
        { time: '2026-01-04' },
      ],
    })
  })

  it('by hour: only within the start day (20 items from 04:00, the duration echoed)', async () => {
    const { app, clock } = await createTestApp()
    clock.advance(30 * 60_000) // 08:30 in Beijing
    await call(app, 'PATCH', `/_sandbox/push/devices/${ANDROID_2}`, { online: false })
    clock.advance(HOUR) // 09:30
    await call(app, 'POST', '/v3/push', pushBody({ audience: { registration_id: [ANDROID_1, ANDROID_2] } }))
    const res = await users(app, 'time_unit=HOUR&start=2026-01-01%2004&duration=24')
    expect(res.body).toMatchObject({ time_unit: 'HOUR', start: '2026-01-01 04', duration: 24 })
    expect(res.body.items).toHaveLength(20)
    expect(res.body.items[0]).toEqual({ time: '2026-01-01 04' })
    expect(res.body.items.slice(4, 7)).toEqual([
      { time: '2026-01-01 08', android: { new: 2, online: 2 }, ios: { new: 2, online: 2 } },
      { time: '2026-01-01 09', android: { online: 1, active: 1 }, ios: { online: 2 } },
      { time: '2026-01-01 10' },
    ])
    expect(res.body.items.at(-1)).toEqual({ time: '2026-01-01 23' })
    // Over 24 hours is 24 hours (and still only that day).
    const long = await users(app, 'time_unit=hour&start=2026-01-01+00&duration=40')
    expect(long.body).toMatchObject({ time_unit: 'HOUR', start: '2026-01-01 00', duration: 24 })
    expect(long.body.items).toHaveLength(24)
  })

  it('by month, and only the calling app’s devices', async () => {
    const { app, clock } = await createTestApp()
    const other = basic(newKey('other'), newKey('s'))
    await call(app, 'GET', '/v3/tags', undefined, { authorization: other })
    await call(app, 'POST', '/v3/push', pushBody(), { authorization: other })
    clock.advance(40 * DAY) // 2026-02-10
    const res = await users(app, 'time_unit=Month&start=2026-01&duration=2')
    expect(res.body).toEqual({
      time_unit: 'MONTH',
      start: '2026-01',
      duration: 2,
      items: [
        { time: '2026-01', android: { new: 2, online: 2 }, ios: { new: 2, online: 2 } },
        { time: '2026-02', android: { online: 2 }, ios: { online: 2 } },
      ],
    })
  })

  it('without a query string (jpush-async drops it): today, by day', async () => {
    const { app } = await createTestApp()
    const jpushAsync = { 'user-agent': 'JPush-API-NodeJS-Client 4.2.0' }
    expect((await call(app, 'GET', '/v3/users', undefined, jpushAsync)).body).toEqual({
      time_unit: 'DAY',
      start: '2026-01-01',
      duration: 1,
      items: [{ time: '2026-01-01', android: { new: 2, online: 2 }, ios: { new: 2, online: 2 } }],
    })
  })

  it('counts in the report window (2400 a minute) with its headers', async () => {
    const { app } = await createTestApp()
    const res = await users(app, 'time_unit=DAY&start=2026-01-01&duration=1')
    expect(rate(res.headers)).toEqual(['2400', '2399', '60'])
    const wrong = await call(app, 'GET', '/v3/users', undefined, { authorization: basic('x', 'y') })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe(3001)
    const put = await call(app, 'PUT', '/v3/users')
    expect([put.status, put.body.error.code]).toEqual([405, 3002])
  })

  it("over the app's report limit → 429 2002", async () => {
    const { app } = await createTestApp()
    const own = app.store.apps.get(APP_KEY)!
    app.store.apps.updateSettings({ ...own, settings: { rate_limits: { report: 1 } } })
    expect((await users(app, 'time_unit=DAY&start=2026-01-01&duration=1')).status).toBe(200)
    const over = await users(app, 'time_unit=DAY&start=2026-01-01&duration=1')
    expect([over.status, over.body.error.code]).toEqual([429, 2002])
  })
})

describe('user statistics refuse', () => {
  // Now is 2026-01-01 08:00 in Beijing: the last 60 days begin on 2025-11-02.
  it.each([
    ['no time_unit', 'start=2026-01-01&duration=1', 3002],
    ['an unknown time_unit', 'time_unit=WEEK&start=2026-01-01&duration=1', 3002],
    ['no start', 'time_unit=DAY&duration=1', 3002],
    ['no duration', 'time_unit=DAY&start=2026-01-01', 3002],
    ['a duration of 0', 'time_unit=DAY&start=2026-01-01&duration=0', 3002],
    ['a duration that is no number', 'time_unit=DAY&start=2026-01-01&duration=two', 3002],
    ['a DAY start with an hour', 'time_unit=DAY&start=2026-01-01%2004&duration=1', 3004],
    ['an HOUR start without one', 'time_unit=HOUR&start=2026-01-01&duration=1', 3004],
    ['a MONTH start with a day', 'time_unit=MONTH&start=2026-01-01&duration=1', 3004],
    ['a day that does not exist', 'time_unit=DAY&start=2025-02-29&duration=1', 3004],
    ['an hour that does not exist', 'time_unit=HOUR&start=2026-01-01%2024&duration=1', 3004],
    ['more than 60 days', 'time_unit=DAY&start=2025-12-01&duration=61', 3005],
    ['more than 2 months', 'time_unit=MONTH&start=2025-12&duration=3', 3005],
    ['a start more than 60 days ago', 'time_unit=DAY&start=2025-11-01&duration=1', 3005],
    ['a month before the last 60 days', 'time_unit=MONTH&start=2025-10&duration=2', 3005],
  ])('%s → 400 %i', async (_name, query, code) => {
    const { app } = await createTestApp()
    const res = await users(app, query)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })

  it.each([
    ['a start 60 days ago', 'time_unit=DAY&start=2025-11-02&duration=60'],
    ['its month', 'time_unit=MONTH&start=2025-11&duration=2'],
    ['its last hour', 'time_unit=HOUR&start=2025-11-02%2023&duration=1'],
  ])('nothing within the last 60 days: %s', async (_name, query) => {
    const { app } = await createTestApp()
    expect((await users(app, query)).status).toBe(200)
  })

  it('with the messages of 3004 and 3005', async () => {
    const { app } = await createTestApp()
    expect((await users(app, 'time_unit=DAY&start=2026-01&duration=1')).body).toEqual({
      error: { code: 3004, message: 'time_unit and start do not match' },
    })
    expect((await users(app, 'time_unit=DAY&start=2026-01-01&duration=61')).body).toEqual({
      error: { code: 3005, message: 'Only the statistics of the last 60 days can be queried' },
    })
  })
})
