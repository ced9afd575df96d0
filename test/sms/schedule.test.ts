import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
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
