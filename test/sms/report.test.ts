import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp } from '../helpers.js'
import { advance } from './schedule-helpers.js'

const send = (app: Parameters<typeof call>[0], mobile: string) =>
  call(app, 'POST', '/v1/messages', { mobile, temp_id: 2, temp_para: { order: 'R', days: '1' } })

describe('GET /v1/report', () => {
  it('hands out each report once, after REPORT_DELAY_MS of clock time, as a top-level array', async () => {
    const { app, clock } = await createTestApp()
    const sent = await send(app, '13800138301')
    const code = await call(app, 'POST', '/v1/codes', { mobile: '13800138302', temp_id: 1 })
    const sentAt = clock.now()

    expect((await call(app, 'GET', '/v1/report')).body).toEqual([])
    await advance(app, 5_000)
    const first = await call(app, 'GET', '/v1/report')
    expect(first.status).toBe(200)
    expect(first.body).toEqual([
      { msgId: sent.body.msg_id, phone: '13800138301', receiveTime: sentAt + 2_000, status: 4001 },
      { msgId: code.body.msg_id, phone: '13800138302', receiveTime: sentAt + 2_000, status: 4001 },
    ])
    await advance(app, 5_000)
    expect((await call(app, 'GET', '/v1/report')).body).toEqual([])
  })

  it('follows REPORT_DELAY_MS', async () => {
    const { app } = await createTestApp({ reportDelayMs: 60_000 })
    await send(app, '13800138303')
    await advance(app, 59_999)
    expect((await call(app, 'GET', '/v1/report')).body).toEqual([])
    await advance(app, 5_000)
    expect((await call(app, 'GET', '/v1/report')).body).toHaveLength(1)
  })

  it.each([4002, 4003, 4004, 4005, 4006, 4007, 4008, 4009, 4010, 4100])(
    'gives status %i to a mobile ending in those digits',
    async status => {
      const { app } = await createTestApp()
      const mobile = `1380000${status}`
      const sent = await send(app, mobile)
      await advance(app, 2_000)
      expect((await call(app, 'GET', '/v1/report')).body).toEqual([
        { msgId: sent.body.msg_id, phone: mobile, receiveTime: expect.any(Number), status },
      ])
    },
  )

  it('hands out at most 500 per call', async () => {
    const { app } = await createTestApp()
    const recipients = Array.from({ length: 501 }, (_, i) => ({
      mobile: `1390000${String(i).padStart(4, '0')}`,
      temp_para: { order: 'B', days: '1' },
    }))
    const batch = await call(app, 'POST', '/v1/messages/batch', { temp_id: 2, recipients })
    expect(batch.body.success_count).toBe(501)
    await advance(app, 2_000)
    expect((await call(app, 'GET', '/v1/report')).body).toHaveLength(500)
    await advance(app, 5_000)
    expect((await call(app, 'GET', '/v1/report')).body).toHaveLength(1)
  })

  it('allows one call per 5 seconds of the app clock (50201), each endpoint on its own', async () => {
    const { app } = await createTestApp()
    expect((await call(app, 'GET', '/v1/report')).status).toBe(200)
    const again = await call(app, 'GET', '/v1/report')
    expect(again.status).toBe(403)
    expect(again.body).toEqual({ error: { code: 50201, message: 'pull out of frequency' } })
    expect((await call(app, 'GET', '/v1/reply')).status).toBe(200)
    expect((await call(app, 'GET', '/v1/reply')).body.error.code).toBe(50201)
    await advance(app, 4_999)
    expect((await call(app, 'GET', '/v1/report')).body.error.code).toBe(50201)
    await advance(app, 1)
    expect((await call(app, 'GET', '/v1/report')).status).toBe(200)
    expect((await call(app, 'GET', '/v1/reply')).status).toBe(200)
  })

  it('refuses polling with 50202 when the app takes callbacks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jsms-seed-'))
    const seedFile = join(dir, 'seed.json')
    const [appKey, secret] = ['callbackapp0000000000001', 'callbackappsecret0000001']
    writeFileSync(
      seedFile,
      JSON.stringify({
        apps: [{ app_key: appKey, master_secret: secret, callback_url: 'http://127.0.0.1:9/hook' }],
      }),
    )
    const { app } = await createTestApp({ seedFile })
    for (const url of ['/v1/report', '/v1/reply']) {
      const res = await call(app, 'GET', url, undefined, { authorization: basic(appKey, secret) })
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ error: { code: 50202, message: 'pull not allow' } })
    }
  })
})

describe('GET /v1/reply and POST /_sandbox/sms/replies', () => {
  it('hands out each injected reply once', async () => {
    const { app, clock } = await createTestApp()
    const injected = await call(app, 'POST', '/_sandbox/sms/replies', {
      mobile: '13800138311',
      content: '收到，谢谢',
    })
    expect(injected.status).toBe(200)
    expect(injected.body).toEqual({
      mobile: '13800138311',
      content: '收到，谢谢',
      reply_time: new Date(clock.now()).toISOString(),
      unsubscribed: false,
    })
    const replies = await call(app, 'GET', '/v1/reply')
    expect(replies.body).toEqual([{ phone: '13800138311', replyTime: clock.now(), content: '收到，谢谢' }])
    await advance(app, 5_000)
    expect((await call(app, 'GET', '/v1/reply')).body).toEqual([])
  })

  it.each(['TD', 'td', ' T ', '退订'])(
    'unsubscribes on %j: marketing then gets 50024, notifications still go',
    async word => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138312', content: word })
      expect(res.body.unsubscribed).toBe(true)
      const marketing = await call(app, 'POST', '/v1/messages', {
        mobile: '13800138312',
        temp_id: 3,
        temp_para: { name: 'x' },
      })
      expect(marketing.status).toBe(403)
      expect(marketing.body).toEqual({ error: { code: 50024, message: 'unsubscribed mobile' } })
      expect((await send(app, '13800138312')).status).toBe(200)
    },
  )

  it('does not unsubscribe on other words, and checks its input', async () => {
    const { app } = await createTestApp()
    expect(
      (await call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138313', content: 'TD please' })).body
        .unsubscribed,
    ).toBe(false)
    expect(
      (
        await call(app, 'POST', '/v1/messages', {
          mobile: '13800138313',
          temp_id: 3,
          temp_para: { name: 'x' },
        })
      ).status,
    ).toBe(200)
    // The control plane's refusals name the field (400 90020).
    const refusal = async (body: unknown) =>
      (await call(app, 'POST', '/_sandbox/sms/replies', body)).body.error
    expect(await refusal({ content: 'hi' })).toEqual({ code: 90020, message: '"mobile": required' })
    expect((await refusal({ mobile: '12', content: 'hi' })).message).toMatch(/^"mobile": must be a mainland/)
    expect(await refusal({ mobile: '13800138313', content: ' ' })).toEqual({
      code: 90020,
      message: '"content": must be a non-empty string',
    })
  })
})
