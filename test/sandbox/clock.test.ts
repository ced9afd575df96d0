import { describe, expect, it } from 'vitest'
import { pendingTemplate } from '../fixtures/templates.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { HOUR, sendTimeIn, sentTo } from '../sms/schedule-helpers.js'

const START = Date.parse('2026-01-01T00:00:00.000Z')

describe('GET and POST /_sandbox/clock', () => {
  it('shows the app clock and moves it forward by advance_ms or to a set time', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/_sandbox/clock')).body).toEqual({ now: START, offset_ms: 0 })
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: 1500 })).body).toEqual({
      now: START + 1500,
      offset_ms: 1500,
    })
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: '500' })).body.now).toBe(START + 2000)
    const set = await call(app, 'POST', '/_sandbox/clock', { set: '2026-01-02T08:00:00+08:00' })
    expect(set.body).toEqual({ now: START + 24 * HOUR, offset_ms: 24 * HOUR })
    expect((await call(app, 'GET', '/_sandbox/clock')).body.now).toBe(START + 24 * HOUR)
  })

  it.each([
    ['a negative advance_ms', { advance_ms: -1 }, 409, 90053],
    ['backwards by set', { set: '2025-12-31T23:59:59Z' }, 409, 90053],
    ['an unparsable time', { set: 'tomorrow' }, 400, 90020],
    ['a bare date number', { set: 1767225600000 }, 400, 90020],
    ['neither field', { foo: 1 }, 400, 90020],
    ['both fields', { advance_ms: 1, set: '2026-02-01T00:00:00Z' }, 400, 90020],
    ['a non-integer', { advance_ms: 'soon' }, 400, 90020],
    // Past the last time a date can show, every later request of the app would fail (and the
    // clock never moves back).
    ['a move past the year 9999', { advance_ms: Number.MAX_SAFE_INTEGER }, 400, 90020],
    ['a set past the year 9999', { set: '10000-01-01T00:00:00Z' }, 400, 90020],
  ])('refuses %s with %i %i, and the clock stays', async (_what, body, status, code) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/clock', body)
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status, code })
    expect((await call(app, 'GET', '/_sandbox/clock')).body.offset_ms).toBe(0)
  })

  it('says why: the clock only moves forward (409 90053)', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/clock', { set: '2025-12-31T23:59:59Z' })
    expect(res.body).toEqual({ error: { code: 90053, message: 'the clock only moves forward' } })
  })

  it('moves as far as the end of the year 9999, and the app still works there', async () => {
    const { app } = await createTestApp()
    const last = Date.parse('9999-12-31T23:59:59.999Z')
    expect((await call(app, 'POST', '/_sandbox/clock', { set: '9999-12-31T23:59:59.999Z' })).body.now).toBe(
      last,
    )
    const pushed = await call(app, 'POST', '/v3/push', {
      platform: 'all',
      audience: 'all',
      notification: { alert: 'hi' },
    })
    expect(pushed.status).toBe(200)
    expect((await call(app, 'GET', '/_sandbox/sms/messages')).status).toBe(200)
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: 1 })).status).toBe(400)
  })

  it('gives each app its own clock', async () => {
    const { app } = await createTestApp()
    const other = { authorization: basic(newKey('c'), newKey('s')) }
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: HOUR })
    expect((await call(app, 'GET', '/_sandbox/clock', undefined, other)).body).toEqual({
      now: START,
      offset_ms: 0,
    })
    // The other app's schedule, due in an hour of its own time, is not due yet.
    const res = await call(
      app,
      'POST',
      '/v1/schedule',
      {
        send_time: await sendTimeIn(app, HOUR, other),
        mobile: '13800138401',
        temp_id: 2,
        temp_para: { order: 'O', days: '1' },
      },
      other,
    )
    expect(res.status).toBe(200)
    await app.scheduler.tick()
    expect(await sentTo(app, '13800138401', other)).toEqual([])
  })

  it('fires a schedule due in one hour when the clock moves by 3600000, without waiting', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138402',
      temp_id: 2,
      temp_para: { order: 'H', days: '1' },
    })
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 3_600_000 })
    expect(await sentTo(app, '13800138402')).toHaveLength(1)
  })

  it('runs what falls due in order, each at its own time', async () => {
    const { app } = await createTestApp()
    for (const [mobile, at] of [
      ['13800138404', 2 * HOUR],
      ['13800138403', HOUR],
    ] as const) {
      await call(app, 'POST', '/v1/schedule', {
        send_time: await sendTimeIn(app, at),
        mobile,
        temp_id: 2,
        temp_para: { order: mobile, days: '1' },
      })
    }
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 3 * HOUR })
    const [first] = await sentTo(app, '13800138403')
    const [second] = await sentTo(app, '13800138404')
    expect(first!.created_at).toBe(new Date(START + HOUR).toISOString())
    expect(second!.created_at).toBe(new Date(START + 2 * HOUR).toISOString())
    const reports = (await call(app, 'GET', '/v1/report')).body
    expect(reports).toEqual([
      { msgId: first!.msg_id, phone: '13800138403', receiveTime: START + HOUR + 2000, status: 4001 },
      { msgId: second!.msg_id, phone: '13800138404', receiveTime: START + 2 * HOUR + 2000, status: 4001 },
    ])
  })

  it('settles due template reviews on the way', async () => {
    const { app } = await createTestApp()
    pendingTemplate(app, '7d431e42dfa6a6d693ac2d04', 900, START, START + 60_000)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 60_000 })
    expect(app.store.templates.get('7d431e42dfa6a6d693ac2d04', 900)?.status).toBe(1)
  })
})
