import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { startReceiver } from '../scheduler/receiver.js'
import { advance, sendTimeIn } from '../sms/schedule-helpers.js'

// POST /_sandbox/sms/reports: a test decides the carrier's delivery report of one message.

const tenant = () => ({ authorization: basic(newKey('t'), newKey('s')) })
const send = async (
  app: Parameters<typeof call>[0],
  auth: { authorization: string },
  mobile = '13800138000',
) => {
  const res = await call(
    app,
    'POST',
    '/v1/messages',
    { mobile, temp_id: 2, temp_para: { order: 'S', days: '1' } },
    auth,
  )
  return res.body.msg_id as string
}

describe('POST /_sandbox/sms/reports', () => {
  it('gives a report the status chosen, pulled as usual when it falls due; magic numbers still work', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const steered = await send(app, auth)
    const magic = await send(app, auth, '13800004004')
    const res = await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: steered, status: 4003 }, auth)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      msg_id: steered,
      mobile: '13800138000',
      status: 4003,
      report_at: '2026-01-01T00:00:02.000Z',
    })
    // Not before its time.
    expect((await call(app, 'GET', '/v1/report', undefined, auth)).body).toEqual([])
    await advance(app, 5_000, auth)
    const pulled = (await call(app, 'GET', '/v1/report', undefined, auth)).body
    expect(pulled.map((r: { msgId: string; status: number }) => [r.msgId, r.status]).sort()).toEqual(
      [
        [steered, 4003],
        [magic, 4004],
      ].sort(),
    )
  })

  it('reaches the callback as SMS_REPORT with that status', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, auth)
    const msgId = await send(app, auth)
    await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: Number(msgId), status: '4100' }, auth)
    await advance(app, 2_000, auth)
    expect(receiver.received.map(r => JSON.parse(r.form.data!))).toEqual([
      expect.objectContaining({ msgId, status: 4100 }),
    ])
    // Called back is handed out: it can no longer change.
    const late = await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: msgId, status: 4001 }, auth)
    expect({ status: late.status, code: late.body.error.code }).toEqual({ status: 409, code: 90051 })
  })

  it('refuses a report already pulled: 409 90051', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const msgId = await send(app, auth)
    await advance(app, 2_000, auth)
    expect((await call(app, 'GET', '/v1/report', undefined, auth)).body).toHaveLength(1)
    const res = await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: msgId, status: 4002 }, auth)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: {
        error: {
          code: 90051,
          message: `the report of msg_id ${msgId} was already handed out (GET /v1/report or its callback): it can no longer change`,
        },
      },
    })
  })

  it('answers 404 90040 for a msg_id the app never sent (another app’s included)', async () => {
    const { app } = await createTestApp()
    const mine = tenant()
    const msgId = await send(app, tenant())
    for (const id of [msgId, '999999999999']) {
      const res = await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: id, status: 4002 }, mine)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { error: { code: 90040, message: `the app sent no message with msg_id ${id}` } },
      })
    }
  })

  it('answers 409 90052 for a scheduled message not sent yet', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const created = await call(
      app,
      'POST',
      '/v1/schedule',
      {
        send_time: await sendTimeIn(app, 3_600_000, auth),
        mobile: '13800138000',
        temp_id: 2,
        temp_para: { order: 'S', days: '1' },
      },
      auth,
    )
    const task = await call(app, 'GET', `/v1/schedule/${created.body.schedule_id}`, undefined, auth)
    const msgId = task.body.recipients[0].msg_id
    const res = await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: msgId, status: 4002 }, auth)
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 409, code: 90052 })
    // Once it went out, its report can be steered.
    await advance(app, 3_600_000, auth)
    expect(
      (await call(app, 'POST', '/_sandbox/sms/reports', { msg_id: msgId, status: 4002 }, auth)).status,
    ).toBe(200)
  })

  it.each([
    [
      'a status outside the table',
      { status: 4011 },
      '"status": must be a delivery status: 4001, 4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010, 4100',
    ],
    ['no msg_id', { msg_id: undefined }, '"msg_id": required: the msg_id of a message the app sent'],
    ['an unknown key', { state: 1 }, '"state": unknown key'],
  ])('refuses %s with 400 90020', async (_what, change, message) => {
    const { app } = await createTestApp()
    const auth = tenant()
    const body = { msg_id: await send(app, auth), status: 4002, ...change }
    const res = await call(app, 'POST', '/_sandbox/sms/reports', body, auth)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: { code: 90020, message } },
    })
  })
})
