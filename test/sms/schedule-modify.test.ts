import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { advance, HOUR, sendTimeIn, sentTo } from './schedule-helpers.js'

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
    const removed = await call(app, 'DELETE', `/v1/schedule/${deleted}`)
    expect(removed.status).toBe(200)
    expect(removed.raw).toBe('')
    expect(removed.headers['content-length']).toBe('0')
    expect(removed.headers['content-type']).toMatch(/^application\/json/)
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
