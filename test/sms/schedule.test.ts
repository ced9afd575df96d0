import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { advance, HOUR, sendTimeIn, sentTo } from './schedule-helpers.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('POST /v1/schedule', () => {
  it('takes a task, shows it with its msg_id, and sends it exactly when due', async () => {
    const { app } = await createTestApp()
    const send_time = await sendTimeIn(app, HOUR)
    const res = await call(app, 'POST', '/v1/schedule', {
      send_time,
      mobile: '13800138001',
      temp_id: 2,
      temp_para: { order: 'A1', days: 3 },
    })
    expect(res.status).toBe(200)
    expect(Object.keys(res.body)).toEqual(['schedule_id'])
    expect(res.body.schedule_id).toMatch(UUID)
    const id = res.body.schedule_id

    const shown = await call(app, 'GET', `/v1/schedule/${id}`)
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual({
      schedule_id: id,
      send_time,
      temp_id: 2,
      recipients: [
        {
          msg_id: expect.stringMatching(/^\d+$/),
          mobile: '13800138001',
          temp_para: { order: 'A1', days: '3' },
        },
      ],
    })
    const msgId = shown.body.recipients[0].msg_id

    await advance(app, HOUR - 1000)
    expect(await sentTo(app, '13800138001')).toEqual([])
    await advance(app, 1000)
    const sent = await sentTo(app, '13800138001')
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({
      msg_id: msgId,
      schedule_id: id,
      content: '【极光沙箱】您的订单A1已发货，预计3天内送达。',
    })

    // Moving on sends nothing more.
    await advance(app, 24 * HOUR)
    expect(await sentTo(app, '13800138001')).toHaveLength(1)
  })

  it('accepts the C# body: explicit nulls, type and ttl, numbers as strings', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138002',
      temp_id: '2',
      temp_para: { order: 'B', days: '1' },
      sign_id: null,
      tag: null,
      type: 1,
      ttl: 0,
    })
    expect(res.status).toBe(200)
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['malformed', '2030/03/01 09:30:00'],
    ['impossible', '2030-02-30 09:30:00'],
    ['a number', 1893456000000],
    ['in the past', '2025-12-31 23:59:59'],
  ])('answers 403 50027 when send_time is %s', async (_what, send_time) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/schedule', {
      send_time,
      mobile: '13800138003',
      temp_id: 1,
      temp_para: { code: '123456' },
    })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 50027, message: 'invalid send_time' } })
  })

  it('answers 50027 when send_time is exactly now on the app clock, in Beijing time', async () => {
    const { app } = await createTestApp()
    // The ManualClock starts at 2026-01-01T00:00:00Z, which is 08:00 in Beijing.
    const now = await call(app, 'POST', '/v1/schedule', {
      send_time: '2026-01-01 08:00:00',
      mobile: '13800138003',
      temp_id: 1,
      temp_para: { code: '123456' },
    })
    expect(now.body.error.code).toBe(50027)
    const later = await call(app, 'POST', '/v1/schedule', {
      send_time: '2026-01-01 08:00:01',
      mobile: '13800138003',
      temp_id: 1,
      temp_para: { code: '123456' },
    })
    expect(later.status).toBe(200)
  })

  it('validates like an immediate send when submitted', async () => {
    const { app } = await createTestApp()
    const send_time = await sendTimeIn(app, HOUR)
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ temp_id: 1 }, 50004],
      [{ mobile: '123', temp_id: 1 }, 50006],
      [{ mobile: '13800138004' }, 50005],
      [{ mobile: '13800138004', temp_id: 999 }, 50013],
      [{ mobile: '13800138004', temp_id: 4 }, 50020],
      [{ mobile: '13800138004', temp_id: 2, temp_para: { order: 'x' } }, 50022],
      [{ mobile: '13800138004', temp_id: 2, sign_id: 77, temp_para: { order: 'x', days: 1 } }, 50051],
    ]
    for (const [body, code] of cases) {
      const res = await call(app, 'POST', '/v1/schedule', { send_time, ...body })
      expect(res.body?.error?.code, JSON.stringify(body)).toBe(code)
    }
  })
})

describe('PUT, GET and DELETE /v1/schedule/{schedule_id}', () => {
  async function scheduled(app: Awaited<ReturnType<typeof createTestApp>>['app'], mobile = '13800138010') {
    const res = await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, HOUR),
      mobile,
      temp_id: 1,
      temp_para: { code: '123456' },
    })
    return res.body.schedule_id as string
  }

  it('modifies a pending task: the new content goes out at the new time, once', async () => {
    const { app } = await createTestApp()
    const id = await scheduled(app)
    const send_time = await sendTimeIn(app, 2 * HOUR)
    const put = await call(app, 'PUT', `/v1/schedule/${id}`, {
      send_time,
      mobile: '13800138011',
      temp_id: 1,
      temp_para: { code: '123456' },
    })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({ schedule_id: id })
    expect((await call(app, 'GET', `/v1/schedule/${id}`)).body).toMatchObject({
      send_time,
      recipients: [{ mobile: '13800138011' }],
    })

    await advance(app, HOUR)
    expect(await sentTo(app, '13800138010')).toEqual([])
    expect(await sentTo(app, '13800138011')).toEqual([])
    await advance(app, HOUR)
    expect(await sentTo(app, '13800138010')).toEqual([])
    expect(await sentTo(app, '13800138011')).toHaveLength(1)
  })

  it('deletes with 200 and an empty body; a deleted task never goes out', async () => {
    const { app } = await createTestApp()
    const id = await scheduled(app)
    const res = await app.inject({
      method: 'DELETE',
      url: `/v1/schedule/${id}`,
      headers: { authorization: basic('7d431e42dfa6a6d693ac2d04', '5e987ac6d2e04d95a9d8f0d1') },
    })
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    await advance(app, 2 * HOUR)
    expect(await sentTo(app, '13800138010')).toEqual([])
  })

  it('answers 50028 for an unknown id, another app’s id, or the other kind of task', async () => {
    const { app } = await createTestApp()
    const id = await scheduled(app)
    const other = { authorization: basic(newKey('a'), newKey('s')) }
    const body = {
      send_time: await sendTimeIn(app, 2 * HOUR),
      mobile: '13800138010',
      temp_id: 1,
      temp_para: { code: '123456' },
    }
    const attempts = [
      await call(app, 'GET', '/v1/schedule/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'),
      await call(app, 'PUT', '/v1/schedule/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', body),
      await call(app, 'DELETE', '/v1/schedule/nope'),
      await call(app, 'GET', `/v1/schedule/${id}`, undefined, other),
      await call(app, 'DELETE', `/v1/schedule/${id}`, undefined, other),
      await call(app, 'PUT', `/v1/schedule/${id}`, body, other),
      await call(app, 'PUT', `/v1/schedule/batch/${id}`, {
        ...body,
        recipients: [{ mobile: '13800138010' }],
        temp_id: 2,
      }),
    ]
    for (const res of attempts) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ error: { code: 50028, message: 'invalid schedule_id' } })
    }
    // The task is untouched by all of that.
    expect((await call(app, 'GET', `/v1/schedule/${id}`)).status).toBe(200)
  })

  it('answers 50029 when modifying or deleting a task already sent or deleted', async () => {
    const { app } = await createTestApp()
    const sent = await scheduled(app, '13800138012')
    const deleted = await scheduled(app, '13800138013')
    expect((await call(app, 'DELETE', `/v1/schedule/${deleted}`)).status).toBe(200)
    await advance(app, HOUR)
    const body = {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138012',
      temp_id: 1,
      temp_para: { code: '123456' },
    }
    for (const res of [
      await call(app, 'PUT', `/v1/schedule/${sent}`, body),
      await call(app, 'DELETE', `/v1/schedule/${sent}`),
      await call(app, 'PUT', `/v1/schedule/${deleted}`, body),
      await call(app, 'DELETE', `/v1/schedule/${deleted}`),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ error: { code: 50029, message: 'wrong schedule status' } })
    }
    // A sent task can still be read; a deleted one is gone.
    expect((await call(app, 'GET', `/v1/schedule/${sent}`)).status).toBe(200)
    expect((await call(app, 'GET', `/v1/schedule/${deleted}`)).body.error.code).toBe(50028)
    expect(await sentTo(app, '13800138012')).toHaveLength(1)
  })

  it('answers 50029 to a PUT or DELETE arriving at the due moment, and the task goes out once', async () => {
    const { app, clock } = await createTestApp()
    const id = await scheduled(app, '13800138014')
    clock.advance(HOUR) // the process clock reaches the due time; no tick has run yet
    const body = {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138015',
      temp_id: 1,
      temp_para: { code: '123456' },
    }
    const [put, del] = await Promise.all([
      call(app, 'PUT', `/v1/schedule/${id}`, body),
      call(app, 'DELETE', `/v1/schedule/${id}`),
      app.scheduler.tick(),
    ])
    expect(put.body.error.code).toBe(50029)
    expect(del.body.error.code).toBe(50029)
    await app.scheduler.tick()
    expect(await sentTo(app, '13800138014')).toHaveLength(1)
    expect(await sentTo(app, '13800138015')).toEqual([])
  })
})
