import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { advance, HOUR, sendTimeIn } from '../sms/schedule-helpers.js'

// The lists the web UI reads that JSMS has no endpoint for: the app's templates and signatures
// with their review state, and its SMS tasks with their state and recipients.

describe('GET /_sandbox/sms/templates and /signs', () => {
  it('lists the fixtures with their review state', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/_sandbox/sms/templates')
    expect(res.status).toBe(200)
    expect(res.body.templates.map((t: { temp_id: number; status: number }) => [t.temp_id, t.status])).toEqual(
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 0],
        [5, 2],
      ],
    )
    expect(res.body.templates[4]).toMatchObject({
      type: 3,
      refuse_reason: expect.any(String),
      review_at: null,
    })
    const signs = await call(app, 'GET', '/_sandbox/sms/signs')
    expect(signs.body.signs).toEqual([
      expect.objectContaining({
        sign_id: 1,
        sign: '极光沙箱',
        status: 1,
        is_default: 1,
        refuse_reason: null,
      }),
    ])
  })

  it('shows a new template under review until the clock approves it, and a decision at once', async () => {
    const { app, clock } = await createTestApp()
    const made = await call(app, 'POST', '/v1/templates', { template: '取件码{{code}}', type: 1, ttl: 60 })
    const tempId = made.body.temp_id
    const listed = async () =>
      (await call(app, 'GET', '/_sandbox/sms/templates')).body.templates.find(
        (t: { temp_id: number }) => t.temp_id === tempId,
      )
    expect(await listed()).toMatchObject({
      status: 0,
      review_at: new Date(clock.now() + 60_000).toISOString(),
    })
    await call(app, 'POST', `/_sandbox/sms/templates/${tempId}/review`, { status: 2, refuse_reason: 'no' })
    expect(await listed()).toMatchObject({ status: 2, refuse_reason: 'no', review_at: null })
    await call(app, 'PUT', `/v1/templates/${tempId}`, { template: '取件码{{code}}。', type: 1, ttl: 60 })
    await advance(app, 60_000)
    expect(await listed()).toMatchObject({ status: 1, review_at: null })
  })

  it('shows only the calling app’s', async () => {
    const { app } = await createTestApp()
    await call(app, 'POST', '/v1/templates', { template: '{{code}}是验证码', type: 1, ttl: 60 })
    const other = { authorization: basic(newKey('tpl'), newKey('sec')) }
    const res = await call(app, 'GET', '/_sandbox/sms/templates', undefined, other)
    expect(res.body.templates).toHaveLength(5)
  })
})

describe('GET /_sandbox/sms/schedules', () => {
  it('lists each task with its state and recipients: pending, then sent with their msg_ids', async () => {
    const { app } = await createTestApp()
    const sendTime = await sendTimeIn(app, HOUR)
    const made = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: sendTime,
      temp_id: 2,
      recipients: [
        { mobile: '13800138000', temp_para: { order: 'S1', days: '1' } },
        { mobile: '13800138001', temp_para: { order: 'S2', days: '2' } },
      ],
    })
    const id = made.body.schedule_id
    const before = await call(app, 'GET', '/_sandbox/sms/schedules')
    expect(before.status).toBe(200)
    expect(before.body.schedules).toEqual([
      expect.objectContaining({
        schedule_id: id,
        batch: true,
        temp_id: 2,
        send_time: sendTime,
        state: 'pending',
        sent_at: null,
      }),
    ])
    const [first] = before.body.schedules[0].recipients
    expect(first).toEqual({
      msg_id: expect.any(String),
      mobile: '13800138000',
      temp_para: { order: 'S1', days: '1' },
      error: null,
    })

    await advance(app, HOUR)
    const after = (await call(app, 'GET', `/_sandbox/sms/schedules?schedule_id=${id}`)).body.schedules
    expect(after).toHaveLength(1)
    expect(after[0]).toMatchObject({ state: 'sent', sent_at: expect.any(String) })
    const sent = await call(app, 'GET', `/_sandbox/sms/messages?msg_id=${first.msg_id}`)
    expect(sent.body.messages[0]).toMatchObject({ schedule_id: id, mobile: '13800138000' })
  })

  it('keeps a refusal met when the task fired, and deleted tasks; newest first, `limit`', async () => {
    const { app } = await createTestApp()
    // Neither the app nor its developer can pay for a notification.
    const broke = { balance: 0, industry: 0 }
    await call(app, 'PATCH', '/_sandbox/app', { balances: broke, developer: { balances: broke } })
    const failing = await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'F', days: '1' },
    })
    const deleted = await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, 2 * HOUR),
      mobile: '13800138001',
      temp_id: 2,
      temp_para: { order: 'D', days: '1' },
    })
    await call(app, 'DELETE', `/v1/schedule/${deleted.body.schedule_id}`)
    await advance(app, HOUR)
    const all = (await call(app, 'GET', '/_sandbox/sms/schedules')).body.schedules
    expect(all.map((s: { schedule_id: string; state: string }) => [s.schedule_id, s.state])).toEqual([
      [deleted.body.schedule_id, 'deleted'],
      [failing.body.schedule_id, 'sent'],
    ])
    expect(all[1].recipients[0].error).toEqual({ code: 50014, message: expect.any(String) })
    expect((await call(app, 'GET', '/_sandbox/sms/schedules?limit=1')).body.schedules).toHaveLength(1)
  })

  it('takes the lists’ filters: state, mobile and msg_id of a recipient, since/until; refuses the rest', async () => {
    const { app } = await createTestApp()
    const task = async (mobile: string, at: number) =>
      (
        await call(app, 'POST', '/v1/schedule', {
          send_time: await sendTimeIn(app, at),
          mobile,
          temp_id: 2,
          temp_para: { order: 'Q', days: '1' },
        })
      ).body.schedule_id as string
    const soon = await task('13800138000', HOUR)
    const later = await task('+8613800138001', 3 * HOUR)
    await advance(app, 2 * HOUR)
    const ids = async (query: string) =>
      (await call(app, 'GET', `/_sandbox/sms/schedules?${query}`)).body.schedules.map(
        (s: { schedule_id: string }) => s.schedule_id,
      )
    expect(await ids('state=sent')).toEqual([soon])
    expect(await ids('state=pending')).toEqual([later])
    expect(await ids('mobile=8613800138001')).toEqual([later])
    const [recipient] = (await call(app, 'GET', `/_sandbox/sms/schedules?schedule_id=${soon}`)).body
      .schedules[0].recipients
    expect(await ids(`msg_id=${recipient.msg_id}`)).toEqual([soon])
    const now = (await call(app, 'GET', '/_sandbox/clock')).body.now
    expect(await ids(`since=${now}`)).toEqual([])
    expect(await ids(`until=${now}`)).toEqual([later, soon])
    for (const [query, message] of [
      ['limit=0', '"limit": must be a whole number from 1 to 1000'],
      ['state=fired', 'pending, sent, deleted'],
      ['after=1', '"after"'],
    ] as const) {
      const res = await call(app, 'GET', `/_sandbox/sms/schedules?${query}`)
      expect(res.status, query).toBe(400)
      expect(res.body.error.code, query).toBe(90020)
      expect(res.body.error.message, query).toContain(message)
    }
  })

  it('another app’s task, or an unknown id, is not listed', async () => {
    const { app } = await createTestApp()
    const made = await call(app, 'POST', '/v1/schedule', {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'X', days: '1' },
    })
    const other = { authorization: basic(newKey('sch'), newKey('sec')) }
    for (const url of [
      '/_sandbox/sms/schedules',
      `/_sandbox/sms/schedules?schedule_id=${made.body.schedule_id}`,
    ])
      expect((await call(app, 'GET', url, undefined, other)).body.schedules, url).toEqual([])
    expect((await call(app, 'GET', '/_sandbox/sms/schedules?schedule_id=nope')).body.schedules).toEqual([])
  })
})
