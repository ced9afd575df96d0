import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'

// The vendor's busy and refusal codes a client's retry and back-off must handle, which the sandbox
// itself never answers (issue 22): a fault answers each on the paths whose table documents it,
// with its documented HTTP status (push 1030 503, device 7030 503, schedule 8203 503; 2005 and
// 2006 403), in that surface's envelope, with the rate headers of the window it counted in.

type Row = [
  path: string,
  method: 'GET' | 'POST',
  code: number,
  status: number,
  message: string,
  body: () => unknown,
]

describe('faults answer the codes a retry must handle', () => {
  it.each<Row>([
    ['/v3/push', 'POST', 1030, 503, 'Internal service timeout', () => pushBody()],
    ['/v3/push', 'POST', 2005, 403, 'Message volume beyond a reasonable range', () => pushBody()],
    ['/v3/push/validate', 'POST', 2006, 403, 'This API is only available to VIP apps', () => pushBody()],
    [`/v3/devices/${ANDROID_1}`, 'GET', 7030, 503, 'System busy, please retry later', () => undefined],
    [
      '/v3/devices/status',
      'POST',
      2006,
      403,
      'This API is only available to VIP apps',
      () => ({ registration_ids: [ANDROID_1] }),
    ],
    ['/v3/schedules', 'GET', 8203, 503, 'Execute action timeout, please try later again', () => undefined],
    [
      '/v3/messages/detail?msg_ids=1',
      'GET',
      2006,
      403,
      'This API is only available to VIP apps',
      () => undefined,
    ],
  ])('%s %s → %i (%i)', async (path, method, code, status, message, body) => {
    const { app } = await createTestApp()
    const armed = await call(app, 'POST', '/_sandbox/faults', {
      path: path.split('?')[0],
      method,
      code,
      times: 2,
    })
    expect(armed.body).toMatchObject({ code, status, message })
    for (let i = 0; i < 2; i++) {
      const res = await call(app, method, path, body())
      expect([res.status, res.body]).toEqual([status, { error: { code, message } }])
      expect(res.headers['x-rate-limit-limit']).toBeDefined()
    }
    // Then the service answers again.
    expect((await call(app, method, path, body())).status).toBe(200)
  })

  it('each code only where its table has it', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/faults', { path: '/v3/push', code: 7030 })
    expect(res.body.error.message).toBe(
      '"code": 7030 is a code of JPush device (/v3/devices, /v3/tags, /v3/aliases), not of JPush push (/v3/push…)',
    )
    const schedule = await call(app, 'POST', '/_sandbox/faults', { path: '/v3/devices/status', code: 8203 })
    expect(schedule.body.error.code).toBe(90020)
  })
})

describe('GET /v1/accounts/app', () => {
  it('is 403 50033 for an app with no quota assigned in any bucket; one null bucket stays null', async () => {
    const { app } = await createTestApp()
    await call(app, 'PATCH', '/_sandbox/app', {
      balances: { balance: 10, voice: null, industry: null, market: null },
    })
    const some = await call(app, 'GET', '/v1/accounts/app')
    expect(some.body).toEqual({ app_balance: 10, app_voice: null, app_industry: null, app_market: null })
    await call(app, 'PATCH', '/_sandbox/app', { balances: { balance: null } })
    const none = await call(app, 'GET', '/v1/accounts/app')
    expect([none.status, none.body]).toEqual([
      403,
      { error: { code: 50033, message: 'app quota not assigned' } },
    ])
  })
})

describe('GET /v3/messages', () => {
  it('answers null counters for a msg_id it has no statistics of, as /v3/received does', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'GET', '/v3/messages?msg_ids=18100000000000099')
    expect(res.body).toEqual([
      {
        msg_id: '18100000000000099',
        android: { received: null, target: null, online_push: null, click: null, msg_click: null },
        ios: {
          apns_sent: null,
          apns_target: null,
          apns_received: null,
          click: null,
          target: null,
          received: null,
        },
        winphone: { mpns_target: null, mpns_sent: null, click: null },
      },
    ])
    const received = await call(app, 'GET', '/v3/received?msg_ids=18100000000000099')
    expect(received.body[0].android_received).toBeNull()
  })
})
