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

    const one = await call(app, 'GET', `/_sandbox/push/schedules?schedule_id=${daily}`)
    expect(one.body.schedules.map((s: { name: string }) => s.name)).toEqual(['daily'])
    expect((await call(app, 'GET', '/_sandbox/push/schedules?limit=2')).body.schedules).toHaveLength(2)
  })

  it("shows only the caller's own tasks", async () => {
    const { app } = await createTestApp()
    await create(app, single('2026-01-02 09:00:00'))
    const other = { authorization: basic(newKey('other'), newKey('secret')) }
    const res = await call(app, 'GET', '/_sandbox/push/schedules', undefined, other)
    expect(res.body).toEqual({ schedules: [] })
  })
})
