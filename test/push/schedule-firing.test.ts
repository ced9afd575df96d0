import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, IOS_1, push, received } from './helpers.js'
import { advance, at, create, DAY, firings, HOUR, periodical, single, taskPush } from './schedule-helpers.js'

// Each firing is a real push (jpush-api.md §8 "push must be a valid push"): POST /v3/push's own
// validation, delivery, statistics and limits, at the occurrence's own time on the app's clock.

describe('firing', () => {
  it('a single task pushes at its Beijing time, not before, and its device receives it then', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    await advance(app, HOUR - 1)
    expect(await firings(app, id)).toEqual([])
    await advance(app, 1)
    const [fired] = await firings(app, id)
    expect(fired).toMatchObject({ error: { code: 0, message: '' }, ts: at('2026-01-01 09:00:00') })
    const got = await received(app, `msg_id=${fired!.msg_id}`)
    expect(got.map(m => [m.registration_id, m.received_at])).toEqual([
      [ANDROID_1, '2026-01-01T01:00:00.000Z'],
    ])
  })

  it('a clock move over several occurrences fires each once, in order, each at its own time', async () => {
    const { app } = await createTestApp()
    const morning = await create(
      app,
      periodical({ start: '2026-01-01 08:00:00', end: '2026-01-31 00:00:00', time: '09:00:00' }),
    )
    const noon = await create(
      app,
      periodical(
        { start: '2026-01-01 08:00:00', end: '2026-01-31 00:00:00', time: '12:00:00' },
        { push: taskPush({ audience: { registration_id: [IOS_1] } }) },
      ),
    )
    await advance(app, 3 * DAY)
    const a = await firings(app, morning)
    const b = await firings(app, noon)
    expect(a.map(f => f.ts)).toEqual(['01', '02', '03'].map(d => at(`2026-01-${d} 09:00:00`)))
    expect(b.map(f => f.ts)).toEqual(['01', '02', '03'].map(d => at(`2026-01-${d} 12:00:00`)))
    // msg_ids come from one sequence: interleaved as the times are.
    const order = [...a, ...b].sort((x, y) => x.ts - y.ts).map(f => f.msg_id)
    expect(order).toEqual([...order].sort())
    for (const f of [...a, ...b]) {
      const [got] = await received(app, `msg_id=${f.msg_id}`)
      expect(got!.received_at).toBe(new Date(f.ts).toISOString())
    }
  })

  it('a broadcast task counts against the 10 a day; over them, its firing records 2008', async () => {
    const { app } = await createTestApp()
    const broadcast = taskPush({ audience: 'all' })
    const id = await create(
      app,
      periodical(
        { start: '2026-01-01 08:00:00', end: '2026-01-10 00:00:00', time: '09:00:00' },
        { push: broadcast },
      ),
    )
    await advance(app, HOUR) // 09:00: the first firing is today's first broadcast
    for (let i = 0; i < 9; i++) expect((await push(app, broadcast)).status).toBe(200)
    const eleventh = await push(app, broadcast)
    expect([eleventh.status, eleventh.body.error.code]).toEqual([403, 2008])
    await advance(app, DAY - 1) // 01-02 08:59:59.999: a new day, 10 more broadcasts
    for (let i = 0; i < 10; i++) expect((await push(app, broadcast)).status).toBe(200)
    await advance(app, 1)
    const fired = await firings(app, id)
    expect(fired).toHaveLength(2)
    expect(fired[0]!.error.code).toBe(0)
    expect(fired[1]).toEqual({
      msg_id: '',
      error: { code: 2008, message: 'Broadcast push times exceed the limit of today' },
      needRetry: false,
      ts: at('2026-01-02 09:00:00'),
    })
  })

  it('a push that reaches nobody records 1011 with its msg_id; an unknown registration_id 1003', async () => {
    const { app } = await createTestApp()
    const nobody = await create(
      app,
      single('2026-01-01 09:00:00', { push: taskPush({ audience: { alias: ['nobody'] } }) }),
    )
    const unknownRid = await create(
      app,
      single('2026-01-01 09:00:00', {
        push: taskPush({ audience: { registration_id: ['1a00000000000000000'] } }),
      }),
    )
    await advance(app, HOUR)
    const [none] = await firings(app, nobody)
    expect(none!.msg_id).toMatch(/^\d{17}$/)
    expect(none!.error).toEqual({
      code: 1011,
      message: 'cannot find user by this audience or has been inactive for more than 255 days',
    })
    const [bad] = await firings(app, unknownRid)
    expect(bad).toMatchObject({ msg_id: '', error: { code: 1003 } })
  })

  it('a task fires on its own app clock only: another app moving its clock fires nothing of it', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    const other = {
      authorization: `Basic ${Buffer.from('otherapp0000000000000001:othersecret0000000000001').toString('base64')}`,
    }
    await advance(app, 2 * HOUR, other)
    expect(await firings(app, id)).toEqual([])
    await advance(app, HOUR)
    expect(await firings(app, id)).toHaveLength(1)
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).status).toBe(200)
  })
})
