import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1 } from './helpers.js'
import { advance, create, DAY, firings, HOUR, periodical, single, taskPush } from './schedule-helpers.js'

// The Schedule API's endpoints (jpush-api.md §8; docs2019 rest_api_push_schedule.md), at their
// own path and at the Beijing data centre's /v3/push/schedules (§1.1).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('POST /v3/schedules', () => {
  it('answers exactly schedule_id and name; GET shows the five keys, the sections as sent', async () => {
    const { app } = await createTestApp()
    const body = single('2026-01-02 09:00:00', { name: '定时推送示例' })
    const res = await call(app, 'POST', '/v3/schedules', body)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ schedule_id: expect.stringMatching(UUID), name: '定时推送示例' })
    const got = await call(app, 'GET', `/v3/schedules/${res.body.schedule_id}`)
    expect(got.status).toBe(200)
    expect(got.body).toEqual({
      schedule_id: res.body.schedule_id,
      name: '定时推送示例',
      enabled: true,
      trigger: body.trigger,
      push: body.push,
    })
  })

  it('a cid repeated within a day answers the first task and creates nothing; one from /v3/push/cid works', async () => {
    const { app } = await createTestApp()
    const cid = (await call(app, 'GET', '/v3/push/cid?type=schedule')).body.cidlist[0]
    const first = await call(app, 'POST', '/v3/schedules', single('2026-01-02 09:00:00', { cid }))
    const again = await call(
      app,
      'POST',
      '/v3/schedules',
      single('2026-01-03 09:00:00', { cid, name: 'other' }),
    )
    expect(again.body).toEqual(first.body)
    expect((await call(app, 'GET', '/v3/schedules')).body.total_count).toBe(1)
  })

  it("ignores a cid inside push (docs2019): the task's pushes are never taken for repeats of one another", async () => {
    const { app } = await createTestApp()
    const cid = (await call(app, 'GET', '/v3/push/cid')).body.cidlist[0]
    const id = await create(
      app,
      periodical(
        { start: '2026-01-01 08:00:00', end: '2026-01-05 00:00:00', time: '09:00:00' },
        { push: taskPush({ cid }) },
      ),
    )
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).body.push).toEqual(taskPush())
    await advance(app, 2 * DAY)
    const fired = await firings(app, id)
    expect(fired).toHaveLength(2)
    expect(new Set(fired.map(f => f.msg_id)).size).toBe(2)
  })
})

describe('GET /v3/schedules?page=', () => {
  it('lists the tasks not over, oldest first, 50 a page; past the last page, an empty one', async () => {
    const { app } = await createTestApp()
    const ids: string[] = []
    for (let i = 0; i < 51; i++)
      ids.push(await create(app, single('2026-01-02 09:00:00', { name: `task_${i}` })))
    const first = await call(app, 'GET', '/v3/schedules?page=1')
    expect(first.body.total_count).toBe(51)
    expect(first.body.total_pages).toBe(2)
    expect(first.body.page).toBe(1)
    expect(first.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual(ids.slice(0, 50))
    expect(Object.keys(first.body)).toEqual(['total_count', 'total_pages', 'page', 'schedules'])
    const second = await call(app, 'GET', '/v3/schedules/?page=2') // rb's trailing slash
    expect(second.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual(ids.slice(50))
    expect((await call(app, 'GET', '/v3/schedules?page=3')).body).toEqual({
      total_count: 51,
      total_pages: 2,
      page: 3,
      schedules: [],
    })
    // No page (jpush-async drops every query string): page 1.
    expect((await call(app, 'GET', '/v3/schedules')).body.schedules).toHaveLength(50)
  })

  it('leaves out tasks that are over; they still answer GET and msg_ids', async () => {
    const { app } = await createTestApp()
    const done = await create(app, single('2026-01-01 09:00:00'))
    const later = await create(app, single('2026-01-03 09:00:00'))
    await advance(app, 2 * HOUR)
    const list = await call(app, 'GET', '/v3/schedules')
    expect(list.body.schedules.map((s: { schedule_id: string }) => s.schedule_id)).toEqual([later])
    expect((await call(app, 'GET', `/v3/schedules/${done}`)).status).toBe(200)
    expect(await firings(app, done)).toHaveLength(1)
  })
})

describe('PUT /v3/schedules/{id}', () => {
  it('replaces whole sections, keeps the others, and answers the task', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-02 09:00:00'))
    const push = { platform: ['android'], audience: { alias: ['alias2'] }, message: { msg_content: 'm' } }
    const res = await call(app, 'PUT', `/v3/schedules/${id}`, { name: 'renamed', push })
    expect(res.status).toBe(200)
    const expected = {
      schedule_id: id,
      name: 'renamed',
      enabled: true,
      trigger: { single: { time: '2026-01-02 09:00:00' } },
      push,
    }
    expect(res.body).toEqual(expected)
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).body).toEqual(expected)
  })

  it('a new trigger moves the firing; disabled, a task does not fire; enabled again, it does', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    expect(
      (
        await call(app, 'PUT', `/v3/schedules/${id}`, {
          trigger: { single: { time: '2026-01-01 11:00:00' } },
        })
      ).status,
    ).toBe(200)
    await advance(app, 2 * HOUR) // 10:00 Beijing: past the old time, before the new one
    expect(await firings(app, id)).toEqual([])
    expect((await call(app, 'PUT', `/v3/schedules/${id}`, { enabled: false })).body.enabled).toBe(false)
    await advance(app, 30 * 60_000)
    expect((await call(app, 'PUT', `/v3/schedules/${id}`, { enabled: true })).status).toBe(200)
    await advance(app, HOUR)
    expect(await firings(app, id)).toHaveLength(1)
  })

  it('a periodical task enabled again skips what it missed while disabled', async () => {
    const { app } = await createTestApp()
    const id = await create(
      app,
      periodical({ start: '2026-01-01 08:00:00', end: '2026-01-10 00:00:00', time: '09:00:00' }),
    )
    await call(app, 'PUT', `/v3/schedules/${id}`, { enabled: false })
    await advance(app, 2 * DAY) // 01-03 08:00: the 01-01 and 01-02 occurrences pass disabled
    await call(app, 'PUT', `/v3/schedules/${id}`, { enabled: true })
    await advance(app, 2 * DAY)
    expect((await firings(app, id)).map(f => f.ts)).toEqual([
      Date.parse('2026-01-03T01:00:00Z'),
      Date.parse('2026-01-04T01:00:00Z'),
    ])
  })
})

describe('DELETE /v3/schedules/{id}', () => {
  it('answers 200 {} (jpush-async needs a body), and the task is gone and never fires', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    const res = await call(app, 'DELETE', `/v3/schedules/${id}`)
    expect(res.status).toBe(200)
    expect(res.raw).toBe('{}')
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    await advance(app, 2 * HOUR)
    for (const [method, path] of [
      ['GET', `/v3/schedules/${id}`],
      ['GET', `/v3/schedules/${id}/msg_ids`],
      ['PUT', `/v3/schedules/${id}`],
      ['DELETE', `/v3/schedules/${id}`],
    ] as const) {
      const again = await call(app, method, path, method === 'PUT' ? { name: 'x' } : undefined)
      expect([again.status, again.body.error.code], `${method} ${path}`).toEqual([404, 8104])
    }
    const seen = await call(app, 'GET', `/_sandbox/push/messages?registration_id=${ANDROID_1}`)
    expect(seen.body.messages).toEqual([])
  })
})

describe('the Beijing data centre path /v3/push/schedules (§1.1)', () => {
  it('is the same API over the same tasks, its own codes and quota included', async () => {
    const { app } = await createTestApp()
    const created = await call(app, 'POST', '/v3/push/schedules', single('2026-01-01 09:00:00'))
    expect(created.status).toBe(200)
    expect(created.headers['x-rate-limit-limit']).toBe('100')
    const id = created.body.schedule_id
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).body.schedule_id).toBe(id)
    expect((await call(app, 'PUT', `/v3/push/schedules/${id}`, { name: 'bj' })).body.name).toBe('bj')
    expect((await call(app, 'GET', '/v3/push/schedules?page=1')).body.total_count).toBe(1)
    await advance(app, 2 * HOUR)
    const ids = await call(app, 'GET', `/v3/push/schedules/${id}/msg_ids`)
    expect(ids.body.count).toBe(1)
    const unknown = await call(app, 'GET', '/v3/push/schedules/00000000-0000-0000-0000-000000000000')
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 8104])
    expect((await call(app, 'DELETE', `/v3/push/schedules/${id}`)).status).toBe(200)
    expect((await call(app, 'GET', `/v3/schedules/${id}`)).status).toBe(404)
  })
})

describe('GET /v3/schedules/{id}/msg_ids', () => {
  it('lists each firing as a JSON-encoded {msg_id, error, needRetry, ts}', async () => {
    const { app } = await createTestApp()
    const id = await create(app, single('2026-01-01 09:00:00'))
    expect((await call(app, 'GET', `/v3/schedules/${id}/msg_ids`)).body).toEqual({ count: 0, msgids: [] })
    await advance(app, 2 * HOUR)
    const res = await call(app, 'GET', `/v3/schedules/${id}/msg_ids`)
    expect(res.body.count).toBe(1)
    expect(typeof res.body.msgids[0]).toBe('string')
    const entry = JSON.parse(res.body.msgids[0])
    expect(Object.keys(entry)).toEqual(['msg_id', 'error', 'needRetry', 'ts'])
    expect(entry).toEqual({
      msg_id: expect.stringMatching(/^\d{17}$/),
      error: { code: 0, message: '' },
      needRetry: false,
      ts: Date.parse('2026-01-01T01:00:00Z'),
    })
    // The msg_id is a real push's: the report API knows it.
    const report = await call(app, 'GET', `/v3/received?msg_ids=${entry.msg_id}`)
    expect(report.body[0]).toMatchObject({ msg_id: entry.msg_id, android_received: 1 })
  })
})
