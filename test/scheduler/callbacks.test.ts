import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { pendingTemplate } from '../fixtures/templates.js'
import { basic, call, createTestApp } from '../helpers.js'
import { advance } from '../sms/schedule-helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from './receiver.js'

const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
const START = Date.parse('2026-01-01T00:00:00.000Z')

async function setup(overrides = {}) {
  const receiver = await startReceiver()
  const { app, clock } = await createTestApp({ seedFile: callbackSeed(receiver.url), ...overrides })
  return { app, clock, receiver }
}

const sendOne = (app: Parameters<typeof call>[0], mobile = '13800138501') =>
  call(app, 'POST', '/v1/messages', { mobile, temp_id: 2, temp_para: { order: 'CB', days: '1' } }, auth)

const callbacks = async (app: Parameters<typeof call>[0]) =>
  (await call(app, 'GET', '/_sandbox/callbacks', undefined, auth)).body

describe('callbacks', () => {
  it('POSTs a signed form with the SMS_REPORT when the report arrives', async () => {
    const { app, receiver } = await setup()
    const sent = await sendOne(app)
    await advance(app, 1_999, auth)
    expect(receiver.received).toEqual([])
    await advance(app, 1, auth)

    expect(receiver.received).toHaveLength(1)
    const [{ contentType, form }] = receiver.received as [(typeof receiver.received)[number]]
    expect(contentType).toMatch(/^application\/x-www-form-urlencoded/)
    expect(Object.keys(form).sort()).toEqual(['data', 'nonce', 'signature', 'timestamp', 'type'])
    expect(form.nonce).toMatch(/^\d+$/)
    expect(form.timestamp).toBe(String(START + 2_000))
    const expected = createHash('sha1')
      .update(
        `appKey=${CALLBACK_APP.appKey}&appMasterSecret=${CALLBACK_APP.secret}&nonce=${form.nonce}&timestamp=${form.timestamp}`,
      )
      .digest('hex')
    expect(form.signature).toBe(expected)
    expect(form.type).toBe('SMS_REPORT')
    expect(JSON.parse(form.data!)).toEqual({
      msgId: sent.body.msg_id,
      status: 4001,
      receiveTime: START + 2_000,
      phone: '13800138501',
    })

    const log = await callbacks(app)
    expect(log.callback_url).toBe(receiver.url)
    expect(log.callbacks).toEqual([
      {
        // Sent (1) and its request's entry in the journal (2), the clock moved (3, its request 4),
        // the report arrived (5) and queued it (6), attempted (7).
        seq: 7,
        id: expect.any(Number),
        type: 'SMS_REPORT',
        data: JSON.parse(form.data!),
        url: null, // the app's callback_url
        state: 'delivered',
        attempts: [
          {
            attempt: 1,
            url: receiver.url,
            at: new Date(START + 2_000).toISOString(),
            status_code: 200,
            error: null,
          },
        ],
        next_attempt_at: null,
        created_at: new Date(START + 2_000).toISOString(),
      },
    ])
  })

  it('retries a failed delivery after 3 minutes, 1 hour and 12 hours of clock time, then gives up', async () => {
    const { app, receiver } = await setup()
    receiver.answer('fail')
    await sendOne(app)
    await advance(app, 2_000, auth)
    expect(receiver.received).toHaveLength(1)
    const steps = [3 * 60_000, 3600_000, 12 * 3600_000]
    for (const [i, delay] of steps.entries()) {
      await advance(app, delay - 1, auth)
      expect(receiver.received).toHaveLength(i + 1)
      await advance(app, 1, auth)
      expect(receiver.received).toHaveLength(i + 2)
    }
    await advance(app, 7 * 24 * 3600_000, auth)
    expect(receiver.received).toHaveLength(4)
    const [cb] = (await callbacks(app)).callbacks
    expect(cb.state).toBe('failed')
    expect(cb.attempts.map((a: { status_code: number; error: string }) => [a.status_code, a.error])).toEqual(
      Array(4).fill([500, 'receiver answered HTTP 500']),
    )
    // Each attempt carries its own nonce and timestamp, and is signed again.
    expect(new Set(receiver.received.map(r => r.form.timestamp)).size).toBe(4)
  })

  it('stops retrying once a retry succeeds', async () => {
    const { app, receiver } = await setup()
    receiver.answer('fail')
    await sendOne(app)
    await advance(app, 2_000, auth)
    receiver.answer('ok')
    await advance(app, 3 * 60_000, auth)
    await advance(app, 13 * 3600_000, auth)
    expect(receiver.received).toHaveLength(2)
    expect((await callbacks(app)).callbacks[0].state).toBe('delivered')
  })

  it('calls back uplink replies (SMS_REPLY) and template and signature review results', async () => {
    const { app, receiver } = await setup()
    await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138502', content: '好的' }, auth)
    pendingTemplate(app, CALLBACK_APP.appKey, 901, START, START + 60_000)
    app.store.signs.insert(
      {
        appKey: CALLBACK_APP.appKey,
        signId: 902,
        sign: '新签名',
        type: 1,
        remark: '',
        images: 0,
        status: 0,
        isDefault: false,
        refuseReason: null,
        reviewAt: START + 60_000,
      },
      START,
    )
    await advance(app, 60_000, auth)
    app.store.templates.decide(CALLBACK_APP.appKey, 5, 1, null, START + 60_000) // already rejected: a new decision
    await advance(app, 0, auth)
    const got = receiver.received.map(r => [r.form.type, JSON.parse(r.form.data!)])
    expect(got).toEqual([
      ['SMS_REPLY', { phone: '13800138502', replyTime: START, content: '好的' }],
      ['SMS_TEMPLATE', { tempId: 901, status: 1, refuseReason: null }],
      ['SMS_SIGN', { signId: 902, status: 1, refuseReason: null }],
      ['SMS_TEMPLATE', { tempId: 5, status: 1, refuseReason: null }],
    ])
  })

  it('a receiver that hangs blocks neither the API nor other apps, and times out', async () => {
    const { app, receiver } = await setup()
    receiver.answer('hold')
    await sendOne(app)
    let moved = false
    const moving = advance(app, 2_000, auth).then(() => {
      moved = true
    })
    while (receiver.received.length === 0) await new Promise(resolve => setImmediate(resolve))
    // The callback is on the wire and unanswered: the API still answers, and other work still runs.
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, auth)).status).toBe(200)
    expect((await call(app, 'POST', '/_sandbox/clock', { advance_ms: 60_000 })).status).toBe(200)
    expect(moved).toBe(false)
    receiver.release()
    await moving
    expect((await callbacks(app)).callbacks[0].state).toBe('delivered')
  })

  it('records a timeout when the receiver does not answer in CALLBACK_TIMEOUT_MS', async () => {
    const { app, receiver } = await setup({ callbackTimeoutMs: 100 })
    receiver.answer('hold')
    await sendOne(app)
    await advance(app, 2_000, auth)
    const [cb] = (await callbacks(app)).callbacks
    expect(cb.state).toBe('pending')
    expect(cb.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: null, error: 'timeout' }),
    ])
    expect(cb.next_attempt_at).toBe(new Date(START + 2_000 + 3 * 60_000).toISOString())
  })

  it('records a refused connection and retries it', async () => {
    const { app, receiver } = await setup()
    await receiver.close()
    await sendOne(app)
    await advance(app, 2_000, auth)
    const [cb] = (await callbacks(app)).callbacks
    expect(cb.attempts[0].status_code).toBeNull()
    expect(cb.attempts[0].error).toMatch(/ECONNREFUSED/)
    expect(cb.state).toBe('pending')
  })
})
