import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp } from '../helpers.js'
import { advance, HOUR, sendTimeIn, sentTo } from './schedule-helpers.js'

const order = (o: string) => ({ order: o, days: '2' })

describe('POST /v1/schedule/batch', () => {
  it('answers the vendor shape, leaves the bad recipients out and sends the rest when due', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: await sendTimeIn(app, HOUR),
      temp_id: 2,
      tag: 'promo-7',
      recipients: [
        { mobile: '13800138101', temp_para: order('A1') },
        { mobile: '1391234', temp_para: order('A2') },
        { mobile: 13800138102, temp_para: order('A3') }, // PHP sends numbers
        { mobile: '13800138101', temp_para: order('A4') },
        { mobile: '13800138103', temp_para: { order: 'A5' } },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      schedule_id: expect.any(String),
      success_count: 2,
      failure_count: 3,
      failure_recipients: [
        { error_code: '50006', error_message: 'invalid mobile', mobile: '1391234', temp_para: order('A2') },
        { error_code: '50034', error_message: 'repeat send', mobile: '13800138101', temp_para: order('A4') },
        {
          error_code: '50022',
          error_message: 'parameters not all replaced',
          mobile: '13800138103',
          temp_para: { order: 'A5' },
        },
      ],
    })
    const shown = await call(app, 'GET', `/v1/schedule/${res.body.schedule_id}`)
    expect(shown.body.recipients.map((r: { mobile: string }) => r.mobile)).toEqual([
      '13800138101',
      '13800138102',
    ])

    await advance(app, HOUR)
    expect(await sentTo(app, '13800138101')).toHaveLength(1)
    expect(await sentTo(app, '13800138102')).toHaveLength(1)
  })

  it('answers 50030 for no recipients and 50031 for more than 1000', async () => {
    const { app } = await createTestApp()
    const send_time = await sendTimeIn(app, HOUR)
    for (const recipients of [undefined, []]) {
      const res = await call(app, 'POST', '/v1/schedule/batch', { send_time, temp_id: 2, recipients })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ error: { code: 50030, message: 'recipients is empty' } })
    }
    const many = Array.from({ length: 1001 }, (_, i) => ({ mobile: `1380000${String(i).padStart(4, '0')}` }))
    const res = await call(app, 'POST', '/v1/schedule/batch', { send_time, temp_id: 2, recipients: many })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 50031, message: 'too much recipients' } })
  })

  it('refuses a verification template (50025), like /v1/messages/batch', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: await sendTimeIn(app, HOUR),
      temp_id: 1,
      recipients: [{ mobile: '13800138104', temp_para: { code: '1' } }],
    })
    expect(res.body.error.code).toBe(50025)
  })
})

describe('PUT /v1/schedule/batch/{schedule_id}', () => {
  it('replaces the recipients and the time, and answers like the create', async () => {
    const { app } = await createTestApp()
    const created = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: await sendTimeIn(app, HOUR),
      temp_id: 2,
      recipients: [{ mobile: '13800138111', temp_para: order('B1') }],
    })
    const id = created.body.schedule_id
    const put = await call(app, 'PUT', `/v1/schedule/batch/${id}`, {
      send_time: await sendTimeIn(app, 3 * HOUR),
      temp_id: 2,
      recipients: [{ mobile: '13800138112', temp_para: order('B2') }, { mobile: 'x' }],
    })
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ schedule_id: id, success_count: 1, failure_count: 1 })
    // A single-task PUT on a batch task is refused.
    const single = await call(app, 'PUT', `/v1/schedule/${id}`, {
      send_time: await sendTimeIn(app, HOUR),
      mobile: '13800138113',
      temp_id: 2,
      temp_para: order('B3'),
    })
    expect(single.body.error.code).toBe(50028)

    await advance(app, 3 * HOUR)
    expect(await sentTo(app, '13800138111')).toEqual([])
    expect(await sentTo(app, '13800138112')).toHaveLength(1)
  })
})

describe('failures when the task fires', () => {
  it('records each refused recipient in GET and in its delivery report; the others still go out', async () => {
    const { app } = await createTestApp()
    // Marketing: unsubscribed after submission (50024), and over 3 per 10 minutes (50009).
    for (let i = 0; i < 3; i++) {
      const r = await call(app, 'POST', '/v1/messages', {
        mobile: '13800138122',
        temp_id: 3,
        temp_para: { name: 'x' },
      })
      expect(r.status).toBe(200)
    }
    const created = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: await sendTimeIn(app, 60_000),
      temp_id: 3,
      recipients: ['13800138121', '13800138122', '13800138123'].map(mobile => ({
        mobile,
        temp_para: { name: 'y' },
      })),
    })
    const id = created.body.schedule_id
    await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138121', content: ' td ' })
    await advance(app, 60_000)

    const shown = await call(app, 'GET', `/v1/schedule/${id}`)
    const [unsubscribed, tooOften, fine] = shown.body.recipients
    expect(unsubscribed).toMatchObject({
      mobile: '13800138121',
      error_code: '50024',
      error_message: 'unsubscribed mobile',
    })
    expect(tooOften).toMatchObject({
      mobile: '13800138122',
      error_code: '50009',
      error_message: 'out of freq',
    })
    expect(fine).not.toHaveProperty('error_code')
    expect(await sentTo(app, '13800138123')).toHaveLength(1)
    expect(await sentTo(app, '13800138121')).toEqual([])

    await advance(app, 2_000)
    const reports = (await call(app, 'GET', '/v1/report')).body as Array<{ msgId: string; status: number }>
    const status = Object.fromEntries(reports.map(r => [r.msgId, r.status]))
    expect(status[unsubscribed.msg_id]).toBe(4100)
    expect(status[tooOften.msg_id]).toBe(4006)
    expect(status[fine.msg_id]).toBe(4001)
  })

  it('charges the balance only when the task fires: an empty account gives 50014 and report 4005', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsms-seed-'))
    const seedFile = join(dir, 'seed.json')
    const zero = { balance: 0, voice: 0, industry: 0, market: 0 }
    const [devKey, devSecret, appKey, secret] = [
      'pooreddev000000000000001',
      'pooreddevsecret000000001',
      'poorapp00000000000000001',
      'poorappsecret00000000001',
    ]
    writeFileSync(
      seedFile,
      JSON.stringify({
        developers: [{ dev_key: devKey, dev_secret: devSecret, balances: zero }],
        apps: [{ app_key: appKey, master_secret: secret, dev_key: devKey, balances: zero }],
      }),
    )
    const { app } = await createTestApp({ seedFile })
    const auth = { authorization: basic(appKey, secret) }
    const created = await call(
      app,
      'POST',
      '/v1/schedule',
      {
        send_time: await sendTimeIn(app, HOUR, auth),
        mobile: '13800138131',
        temp_id: 2,
        temp_para: order('C'),
      },
      auth,
    )
    expect(created.status).toBe(200)
    await advance(app, HOUR + 2_000, auth)
    const shown = await call(app, 'GET', `/v1/schedule/${created.body.schedule_id}`, undefined, auth)
    expect(shown.body.recipients[0]).toMatchObject({ error_code: '50014', error_message: 'no money' })
    const reports = await call(app, 'GET', '/v1/report', undefined, auth)
    expect(reports.body).toEqual([
      {
        msgId: shown.body.recipients[0].msg_id,
        phone: '13800138131',
        receiveTime: expect.any(Number),
        status: 4005,
      },
    ])
  })
})
