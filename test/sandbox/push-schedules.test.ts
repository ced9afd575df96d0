import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { advance, create, HOUR, periodical, single, taskPush } from '../push/schedule-helpers.js'

// GET /_sandbox/push/schedules: what the Schedule API does not show — every task of the caller's
// app (over and deleted ones too), its state, its next firing, and each firing's msg_id or error.

describe('GET /_sandbox/push/schedules', () => {
  it('shows each task with its state, next firing and firings, newest first', async () => {
    const { app } = await createTestApp()
    const fired = await create(app, single('2026-01-01 09:00:00', { name: 'fired' }))
    const nobody = await create(
      app,
      single('2026-01-01 09:00:00', { name: 'nobody', push: taskPush({ audience: { alias: ['nobody'] } }) }),
    )
    const daily = await create(
      app,
      periodical(
        { start: '2026-01-01 08:00:00', end: '2026-01-10 00:00:00', time: '10:00:00' },
        { name: 'daily' },
      ),
    )
    const off = await create(app, single('2026-01-05 09:00:00', { name: 'off' }))
    const gone = await create(app, single('2026-01-05 09:00:00', { name: 'gone' }))
    await call(app, 'PUT', `/v3/schedules/${off}`, { enabled: false })
    await call(app, 'DELETE', `/v3/schedules/${gone}`)
    await advance(app, 2 * HOUR) // 10:00 Beijing

    const res = await call(app, 'GET', '/_sandbox/push/schedules')
    expect(res.status).toBe(200)
    const byName = Object.fromEntries(res.body.schedules.map((s: { name: string }) => [s.name, s]))
    expect(res.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual([
      gone,
      off,
      daily,
      nobody,
      fired,
    ])
    expect(byName.fired).toMatchObject({
      kind: 'single',
      enabled: true,
      state: 'expired',
      next_fire_time: null,
      firings: [
        { fire_time: '2026-01-01T01:00:00.000Z', msg_id: expect.stringMatching(/^\d{17}$/), error: null },
      ],
    })
    expect(byName.nobody.firings[0].error.code).toBe(1011)
    expect(byName.daily).toMatchObject({
      kind: 'periodical',
      state: 'active',
      next_fire_time: '2026-01-02T02:00:00.000Z',
      firings: [{ fire_time: '2026-01-01T02:00:00.000Z' }],
      trigger: { periodical: { time: '10:00:00' } },
    })
    expect(byName.off).toMatchObject({ state: 'disabled', enabled: false, next_fire_time: null, firings: [] })
    expect(byName.gone).toMatchObject({
      state: 'deleted',
      deleted_at: expect.any(String),
      next_fire_time: null,
    })

    // The lists' filters that make sense for tasks (docs/control-plane.md "Waiting and events").
    const names = async (q: string) => {
      const got = await call(app, 'GET', `/_sandbox/push/schedules?${q}`)
      expect(got.status, got.raw).toBe(200)
      return got.body.schedules.map((s: { name: string }) => s.name)
    }
    expect(await names(`schedule_id=${daily}`)).toEqual(['daily'])
    expect(await names('limit=2')).toEqual(['gone', 'off'])
    expect(await names('kind=periodical')).toEqual(['daily'])
    expect(await names('state=expired')).toEqual(['nobody', 'fired'])
    expect(await names('state=active')).toEqual(['daily'])
    expect(await names('kind=single&state=disabled')).toEqual(['off'])
    expect(await names(`msg_id=${byName.fired.firings[0].msg_id}`)).toEqual(['fired'])
    expect(await names('msg_id=1')).toEqual([])
    // Created at the start of the clock (2026-01-01 08:00 Beijing), all of them.
    expect(await names('since=2026-01-01T00:00:00Z&until=2026-01-01T00:00:01Z')).toHaveLength(5)
    expect(await names('since=2026-01-01T00:00:01Z')).toEqual([])
  })

  it.each([
    ['limit=0', '"limit": must be a whole number from 1 to 1000'],
    ['limit=1001', '"limit": must be a whole number from 1 to 1000'],
    ['kind=daily', '"kind": must be one of single, periodical'],
    ['state=over', '"state": must be one of active, disabled, expired, deleted'],
    ['since=soon', '"since": must be an ISO-8601 time or epoch milliseconds'],
    // Tasks have no seq: their firings are schedule.fired events, which /_sandbox/events waits for.
    [
      'after=3',
      '"after": is not a parameter of this route (it takes since, until, limit, schedule_id, kind, state, msg_id)',
    ],
    ['wait=100', /^"wait": is not a parameter of this route/],
  ])('refuses %s: 400 90020 naming it', async (q, message) => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', `/_sandbox/push/schedules?${q}`)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(90020)
    expect(res.body.error.message).toMatch(message)
  })

  it("shows only the caller's own tasks", async () => {
    const { app } = await createTestApp()
    await create(app, single('2026-01-02 09:00:00'))
    const other = { authorization: basic(newKey('other'), newKey('secret')) }
    const res = await call(app, 'GET', '/_sandbox/push/schedules', undefined, other)
    expect(res.body).toEqual({ schedules: [] })
  })
})
