import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { as, MOBILE, OTHER_MOBILE, seededApp } from './support.js'

// POST /v1/messages/batch (jsms-api.md §2.5): every recipient on its own. The answer carries the
// documented `recipients` (all of them, failed ones with error_code as a STRING) and the
// `failure_recipients` the Java client reads.

const para = (order: string) => ({ order, days: '3' })

describe('POST /v1/messages/batch', () => {
  it('sends to every recipient and answers both shapes', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      tag: 'promo-7',
      recipients: [
        { mobile: MOBILE, temp_para: para('A1') },
        { mobile: OTHER_MOBILE, temp_para: para('A2') },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      success_count: 2,
      failure_count: 0,
      recipients: [
        { msg_id: expect.stringMatching(/^\d+$/), mobile: MOBILE },
        { msg_id: expect.stringMatching(/^\d+$/), mobile: OTHER_MOBILE },
      ],
      failure_recipients: [],
    })
    const sent = (await call(app, 'GET', '/_sandbox/sms/messages')).body.messages
    expect(sent.map((m: { content: string }) => m.content).sort()).toEqual([
      '【极光沙箱】您的订单A1已发货，预计3天内送达。',
      '【极光沙箱】您的订单A2已发货，预计3天内送达。',
    ])
    expect(sent.every((m: { tag: string }) => m.tag === 'promo-7')).toBe(true)
  })

  it("reports each recipient's failure without failing the others", async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      recipients: [
        { mobile: MOBILE, temp_para: para('A1') },
        { mobile: '1391234', temp_para: para('A2') },
        { mobile: OTHER_MOBILE, temp_para: { order: 'A3' } },
        { mobile: `+86${MOBILE}`, temp_para: para('A4') },
        { mobile: '13700137000', temp_para: para('【A5】') },
        { temp_para: para('A6') },
        { mobile: '13600136000', temp_para: para('A7') },
      ],
    })
    expect(res.status).toBe(200)
    const { recipients, failure_recipients, success_count, failure_count } = res.body
    expect([success_count, failure_count]).toEqual([2, 5])
    expect(recipients).toHaveLength(7)
    expect(recipients.map((r: { error_code?: string }) => r.error_code ?? 'ok')).toEqual([
      'ok',
      '50006',
      '50022',
      '50034',
      '50054',
      '50004',
      'ok',
    ])
    expect(recipients[1]).toEqual({
      error_code: '50006',
      error_message: 'invalid mobile',
      msg_id: expect.stringMatching(/^\d+$/),
      mobile: '1391234',
      temp_para: para('A2'),
    })
    expect(failure_recipients).toHaveLength(5)
    expect(failure_recipients[0]).toEqual({
      error_code: '50006',
      error_message: 'invalid mobile',
      mobile: '1391234',
      temp_para: para('A2'),
    })
    for (const f of failure_recipients) expect(typeof f.error_code).toBe('string')
    expect((await call(app, 'GET', '/_sandbox/sms/messages')).body.messages).toHaveLength(2)
  })

  it('refuses per recipient what the send itself refuses: frequency, unsubscribed, balance', async () => {
    const { app } = await seededApp()
    const send = as('unsubscribed')
    const recipients = [MOBILE, OTHER_MOBILE, '13700137000', '13600136000'].map(mobile => ({
      mobile,
      temp_para: { name: 'Li' },
    }))
    const first = await send(app, 'POST', '/v1/messages/batch', { temp_id: 3, recipients })
    expect(first.body.recipients.map((r: { error_code?: string }) => r.error_code ?? 'ok')).toEqual([
      '50024',
      '50024',
      'ok',
      'ok',
    ])
    await send(app, 'POST', '/v1/messages/batch', { temp_id: 3, recipients })
    await send(app, 'POST', '/v1/messages/batch', { temp_id: 3, recipients })
    const fourth = await send(app, 'POST', '/v1/messages/batch', { temp_id: 3, recipients })
    expect(fourth.body.failure_recipients.map((r: { error_code: string }) => r.error_code)).toEqual([
      '50024',
      '50024',
      '50009',
      '50009',
    ])
    const poor = await as('poor')(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      recipients: [{ mobile: MOBILE, temp_para: para('A') }],
    })
    expect(poor.body.failure_recipients).toEqual([
      expect.objectContaining({ error_code: '50014', error_message: 'no money' }),
    ])
  })

  it('accepts the PHP shape: mobile as a number, temp_para as []', async () => {
    const { app } = await seededApp()
    const res = await as('plain')(app, 'POST', '/v1/messages/batch', {
      temp_id: 90,
      recipients: [{ mobile: 13800138000, temp_para: [] }, { mobile: 13900139000 }],
    })
    expect(res.body).toMatchObject({ success_count: 2, failure_count: 0 })
  })

  it('refuses the whole batch for request-level errors', async () => {
    const { app } = await createTestApp()
    const batch = (body: unknown) => call(app, 'POST', '/v1/messages/batch', body)
    const one = [{ mobile: MOBILE, temp_para: para('A') }]
    expect((await batch({ temp_id: 2 })).body.error.code).toBe(50030)
    expect((await batch({ temp_id: 2, recipients: null })).body.error.code).toBe(50030)
    expect((await batch({ temp_id: 2, recipients: 'x' })).body.error.code).toBe(50007)
    expect((await batch({ recipients: one })).body.error.code).toBe(50005)
    expect(
      (await batch({ temp_id: 1, recipients: [{ mobile: MOBILE, temp_para: { code: '1' } }] })).body.error
        .code,
    ).toBe(50025)
    expect((await batch({ temp_id: 4, recipients: one })).body.error.code).toBe(50020)
    const many = Array.from({ length: 1000 }, (_, i) => ({
      mobile: `138${String(i).padStart(8, '0')}`,
      temp_para: para('B'),
    }))
    expect((await batch({ temp_id: 2, recipients: many })).body).toMatchObject({
      success_count: 1000,
      failure_count: 0,
    })
  })
})
