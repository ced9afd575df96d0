import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, newKey } from '../helpers.js'

// The advisor's warnings on what a warned call made (control/warned.ts): the texts of
// GET /_sandbox/sms/messages and the pushes of GET /_sandbox/push/messages and of a device's
// deliveries carry the warnings of the call that made them, with its journal seq, so the web UI
// shows them on the phone and the device (docs/web-ui.md). The test clock starts at
// 2026-01-01T00:00Z, 08:00 in Beijing.

const HOUR = 3_600_000
const tenant = () => ({ authorization: basic(newKey('wi'), newKey('s')) })
const marketing = { mobile: '13800138000', temp_id: 3, temp_para: { name: 'Li' } }

type App = Awaited<ReturnType<typeof createTestApp>>['app']
async function get(app: App, auth: object, path: string) {
  const { status, body } = await call(app, 'GET', path, undefined, auth as never)
  expect(status).toBe(200)
  return body
}
/** The journal's seq of the request to `path`, newest first. */
async function seqOf(app: App, auth: object, path: string): Promise<number> {
  const { requests } = await get(app, auth, `/_sandbox/requests?path=${encodeURIComponent(path)}`)
  return requests.find((r: { path: string }) => r.path === path).seq
}

describe("a warned call's warnings on what it made", () => {
  it('a marketing text sent, batch-sent and scheduled at night carries sms-marketing-hours; a daytime one none', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const day = await call(app, 'POST', '/v1/messages', { ...marketing, mobile: '13800138009' }, auth)
    expect(day.status).toBe(200)
    const scheduled = await call(
      app,
      'POST',
      '/v1/schedule',
      { ...marketing, mobile: '13800138002', send_time: '2026-01-01 22:30:00' },
      auth,
    )
    expect(scheduled.status).toBe(200)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 15 * HOUR }, auth) // 23:00: the schedule fired
    const sent = await call(app, 'POST', '/v1/messages', marketing, auth)
    const batch = await call(
      app,
      'POST',
      '/v1/messages/batch',
      { temp_id: 3, recipients: [{ mobile: '13800138001', temp_para: { name: 'A' } }] },
      auth,
    )
    expect([sent.status, batch.status]).toEqual([200, 200])

    const { messages } = await get(app, auth, '/_sandbox/sms/messages')
    const byMobile = (mobile: string) => messages.find((m: { mobile: string }) => m.mobile === mobile)
    const warning = (seq: number) => ({
      rule: 'sms-marketing-hours',
      message: expect.stringContaining('from 08:00 to 21:00 only'),
      source: expect.stringContaining('jsms_rules.md'),
      request_seq: seq,
    })
    expect(byMobile('13800138000').warnings).toEqual([warning(await seqOf(app, auth, '/v1/messages'))])
    expect(byMobile('13800138001').warnings).toEqual([warning(await seqOf(app, auth, '/v1/messages/batch'))])
    expect(byMobile('13800138002').schedule_id).toBe(scheduled.body.schedule_id)
    expect(byMobile('13800138002').warnings).toEqual([warning(await seqOf(app, auth, '/v1/schedule'))])
    // None: no `warnings` at all, the item its sms.sent event carried.
    expect(byMobile('13800138009')).not.toHaveProperty('warnings')
  })

  it("a push to a development build without apns_production false: apns-environment on its item and the device's deliveries", async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const ios = await call(
      app,
      'POST',
      '/_sandbox/push/devices',
      { platform: 'ios', apns_environment: 'development' },
      auth,
    )
    const rid = ios.body.registration_id
    const audience = { registration_id: [rid] }
    const wrong = await call(
      app,
      'POST',
      '/v3/push',
      { platform: ['ios'], audience, notification: { alert: 'a' } },
      auth,
    )
    const right = await call(
      app,
      'POST',
      '/v3/push',
      { platform: ['ios'], audience, notification: { alert: 'b' }, options: { apns_production: false } },
      auth,
    )
    expect([wrong.status, right.status]).toEqual([200, 200])
    const { requests } = await get(app, auth, '/_sandbox/requests?path=/v3/push&warning=apns-environment')
    expect(requests).toHaveLength(1)

    const { deliveries } = await get(app, auth, `/_sandbox/push/devices/${rid}/deliveries`)
    const of = (msgId: string) => deliveries.find((d: { msg_id: string }) => d.msg_id === msgId)
    expect(of(wrong.body.msg_id)).toMatchObject({ status: 'expired', reason: 'wrong-apns-environment' })
    expect(of(wrong.body.msg_id).warnings).toEqual([
      {
        rule: 'apns-environment',
        message: expect.stringContaining('development builds'),
        source: expect.stringContaining('options.go:41-47'),
        request_seq: requests[0].seq,
      },
    ])
    expect(of(right.body.msg_id)).not.toHaveProperty('warnings')
    // The received push's item: no warning for the right one (the wrong one never arrived).
    const { messages } = await get(app, auth, `/_sandbox/push/messages?registration_id=${rid}`)
    expect(messages.map((m: { msg_id: string; warnings?: unknown[] }) => [m.msg_id, m.warnings])).toEqual([
      [right.body.msg_id, undefined],
    ])
  })

  it("a Xiaomi push without channel_id: xiaomi-channel-id on the delivered push's item", async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const mi = await call(
      app,
      'POST',
      '/_sandbox/push/devices',
      { platform: 'android', channel: 'xiaomi' },
      auth,
    )
    const pushed = await call(
      app,
      'POST',
      '/v3/push',
      {
        platform: ['android'],
        audience: { registration_id: [mi.body.registration_id] },
        notification: { alert: 'mi' },
        options: { third_party_channel: { xiaomi: { distribution: 'secondary_push' } } },
      },
      auth,
    )
    expect(pushed.status).toBe(200)
    const { messages } = await get(app, auth, '/_sandbox/push/messages')
    expect(messages).toHaveLength(1)
    expect(messages[0].warnings).toEqual([
      expect.objectContaining({ rule: 'xiaomi-channel-id', request_seq: await seqOf(app, auth, '/v3/push') }),
    ])
  })
})
