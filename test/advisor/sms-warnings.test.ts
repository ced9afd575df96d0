import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'

// The production advisor on /v1 (docs/advisor.md): a marketing text sent or scheduled outside
// 08:00-21:00 (SMS_TIME_ZONE, on the app's clock) is accepted, and says so: in the journal, in the
// request.completed event, and, asked for, in X-Sandbox-Warning. The test clock starts at
// 2026-01-01T00:00Z, 08:00 in Beijing.

const HOUR = 3_600_000
const tenant = () => ({ authorization: basic(newKey('w'), newKey('s')) })
const marketing = { mobile: '13800138000', temp_id: 3, temp_para: { name: 'Li' } }
const RULE = 'sms-marketing-hours'

interface Warning {
  rule: string
  message: string
  source: string
}

async function journal(app: Awaited<ReturnType<typeof createTestApp>>['app'], auth: object, query = '') {
  const { status, body } = await call(app, 'GET', `/_sandbox/requests${query}`, undefined, auth as never)
  expect(status).toBe(200)
  return body.requests as Array<{ path: string; status: number; warnings: Warning[] }>
}

describe('the advisor on JSMS: marketing texts outside carrier hours', () => {
  it('warns of a marketing text sent at 23:00: journal, event, header on request', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }, auth) // 23:00 Beijing
    const sent = await call(app, 'POST', '/v1/messages', marketing, { ...auth, 'x-sandbox-warnings': 'on' })
    expect(sent.status).toBe(200)
    expect(sent.body).toEqual({ msg_id: expect.any(String) })
    expect(sent.headers['x-sandbox-warning']).toMatch(
      /^sms-marketing-hours; a marketing template goes out at 2026-01-01 23:00:00 \(Asia\/Shanghai\)/,
    )

    const [entry] = await journal(app, auth, `?warning=${RULE}`)
    expect(entry).toMatchObject({ path: '/v1/messages', status: 200 })
    expect(entry!.warnings).toEqual([
      {
        rule: RULE,
        message: expect.stringContaining('from 08:00 to 21:00 only'),
        source: expect.stringContaining('jsms_rules.md'),
      },
    ])
    // The same item is the request.completed event.
    const events = await call(app, 'GET', '/_sandbox/events?kind=request.completed', undefined, auth)
    const event = events.body.events.find(
      (e: { data: { path: string } }) => e.data.path === '/v1/messages',
    ) as { data: { warnings: Warning[] } }
    expect(event.data.warnings).toEqual(entry!.warnings)
  })

  it('warns of a batch, and of a schedule whose send_time is at night, not of a daytime one', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const night = { ...marketing, send_time: '2026-01-01 22:30:00' }
    const day = { ...marketing, send_time: '2026-01-01 20:59:00' }
    expect((await call(app, 'POST', '/v1/schedule', night, auth)).status).toBe(200)
    expect((await call(app, 'POST', '/v1/schedule', day, auth)).status).toBe(200)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 14 * HOUR }, auth) // 22:00
    const batch = await call(
      app,
      'POST',
      '/v1/messages/batch',
      { temp_id: 3, recipients: [{ mobile: '13800138001', temp_para: { name: 'A' } }] },
      auth,
    )
    expect(batch.status).toBe(200)
    // Not asked for: no header.
    expect(batch.headers['x-sandbox-warning']).toBeUndefined()
    const warned = await journal(app, auth, '?warning=any')
    expect(warned.map(e => e.path)).toEqual(['/v1/messages/batch', '/v1/schedule'])
    expect(warned[1]!.warnings[0]!.message).toContain('2026-01-01 22:30:00')
  })

  it('says nothing of a correct call: a daytime marketing text, a notification at night', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const day = await call(app, 'POST', '/v1/messages', marketing, { ...auth, 'x-sandbox-warnings': 'on' })
    expect(day.status).toBe(200)
    expect(day.headers['x-sandbox-warning']).toBeUndefined()
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }, auth)
    const notice = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'J', days: '1' } }
    expect((await call(app, 'POST', '/v1/messages', notice, auth)).status).toBe(200)
    const entries = await journal(app, auth)
    expect(entries.filter(e => e.path === '/v1/messages').map(e => e.warnings)).toEqual([[], []])
    expect(await journal(app, auth, '?warning=any')).toEqual([])
  })

  it("answers the header for every call when the app's settings ask, unless the request says off", async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const patched = await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { warnings: { header: true } } },
      auth,
    )
    expect(patched.status).toBe(200)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }, auth)
    const asked = await call(app, 'POST', '/v1/messages', marketing, auth)
    expect(asked.headers['x-sandbox-warning']).toMatch(/^sms-marketing-hours; /)
    const off = await call(
      app,
      'POST',
      '/v1/messages',
      { ...marketing, mobile: '13800138002' },
      {
        ...auth,
        'x-sandbox-warnings': 'off',
      },
    )
    expect(off.status).toBe(200)
    expect(off.headers['x-sandbox-warning']).toBeUndefined()
  })

  it('stays a warning under STRICT_WARNINGS: JSMS does not refuse the call', async () => {
    const { app } = await createTestApp({ strictWarnings: true })
    const auth = tenant()
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }, auth)
    expect((await call(app, 'POST', '/v1/messages', marketing, auth)).status).toBe(200)
    expect(await journal(app, auth, `?warning=${RULE}`)).toHaveLength(1)
  })
})
