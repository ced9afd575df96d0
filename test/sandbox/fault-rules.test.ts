import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, ANDROID_2, pushBody } from '../push/helpers.js'
import { sendTimeIn } from '../sms/schedule-helpers.js'

// A fault that could never fire is refused, naming why; a fault may fail only the requests (or
// the batch recipients) that name one mobile or registration_id.

const arm = (app: Parameters<typeof call>[0], fault: Record<string, unknown>) =>
  call(app, 'POST', '/_sandbox/faults', fault)
const para = { order: 'M', days: '1' }

describe('POST /_sandbox/faults refuses a fault that could never fire', () => {
  it.each([
    ['a path no route serves', { path: '/v1/nope', code: 50019 }, '"path": no route serves /v1/nope'],
    ['a misspelt path', { path: '/v3/pushes', code: 1000 }, '"path": no route serves /v3/pushes'],
    [
      'a method the path does not answer',
      { path: '/v1/accounts/app', method: 'POST', code: 50019 },
      '"method": /v1/accounts/app does not answer POST (it answers GET, HEAD)',
    ],
    ['an unknown key', { path: '/v1/codes', code: 50019, time: 3 }, '"time": unknown key'],
    [
      'a JSMS code on a /v3 path',
      { path: '/v3/push', code: 50019 },
      '"code": 50019 is a code of JSMS (/v1), not of JPush push (/v3/push…)',
    ],
    [
      'a device code on the push host',
      { path: '/v3/push', code: 7002 },
      '"code": 7002 is a code of JPush device (/v3/devices, /v3/tags, /v3/aliases), not of JPush push (/v3/push…)',
    ],
    [
      'a JPush code on a /v1 path',
      { path: '/v1/messages', code: 1011 },
      '"code": 1011 is a code of JPush push (/v3/push…), not of JSMS (/v1)',
    ],
    [
      'a match on a mobile of a /v3 path',
      { path: '/v3/push', code: 1000, match: { mobile: '13800138000' } },
      '"match.mobile": only /v1 requests name mobiles: match /v3 ones by "registration_id"',
    ],
    [
      'a match with two keys',
      { code: 50019, match: { mobile: '13800138000', registration_id: ANDROID_1 } },
      '"match": give exactly one of "mobile", "registration_id"',
    ],
    ['a match on an unknown key', { code: 50019, match: { alias: 'a' } }, '"match.alias": unknown key'],
    [
      'a match on a mobile that is none',
      { code: 50019, match: { mobile: '123' } },
      '"match.mobile": must be a mainland China mobile number: 11 digits, perhaps after 86 or +86',
    ],
  ])('%s: 400 90020', async (_what, fault, message) => {
    const { app } = await createTestApp()
    const res = await arm(app, fault)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: { code: 90020, message } },
    })
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults).toEqual([])
  })

  it.each([
    [
      'a route pattern, under its own parameter name',
      { path: '/v1/codes/:id/valid', method: 'post', code: 50010 },
    ],
    ['a concrete path with `//` and a trailing slash', { path: '/v1//messages/', code: 50019 }],
    ['a code of the report host', { path: '/v3/received', code: 3002 }],
    ['a shared /v3 code on the device host', { path: '/v3/tags', method: 'GET', code: 2002 }],
    ['HEAD where GET is answered', { path: '/v1/accounts/app', method: 'HEAD', code: 50019 }],
  ])('takes %s', async (_what, fault) => {
    const { app } = await createTestApp()
    expect((await arm(app, fault)).status).toBe(200)
  })

  it('fires on the paths it accepted', async () => {
    const { app } = await createTestApp()
    await arm(app, { path: '/v1//messages/', code: 50019 })
    await arm(app, { path: '/v1/codes/:id/valid', code: 50010 })
    const sent = await call(app, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      temp_para: para,
    })
    expect(sent.body.error.code).toBe(50019)
    expect((await call(app, 'POST', '/v1/codes/1/valid', { code: '1' })).body.error.code).toBe(50010)
  })
})

describe('a fault with "match"', () => {
  it('fails only the sends to that mobile, whatever its notation', async () => {
    const { app } = await createTestApp()
    const armed = await arm(app, {
      path: '/v1/messages',
      code: 50014,
      times: 2,
      match: { mobile: '+8613800138001' },
    })
    expect(armed.body.match).toEqual({ mobile: '13800138001' })
    const to = (mobile: string) => call(app, 'POST', '/v1/messages', { mobile, temp_id: 2, temp_para: para })
    expect((await to('13800138000')).status).toBe(200)
    expect((await to('8613800138001')).body.error.code).toBe(50014)
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults[0].remaining).toBe(1)
  })

  it('fails just that recipient of a batch, with the fault’s code in its entry', async () => {
    const { app } = await createTestApp()
    await arm(app, { path: '/v1/messages/batch', code: 50009, match: { mobile: '13800138001' } })
    const batch = await call(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      recipients: ['13800138000', '13800138001', '13800138002'].map(mobile => ({ mobile, temp_para: para })),
    })
    expect(batch.status).toBe(200)
    expect(batch.body).toMatchObject({ success_count: 2, failure_count: 1 })
    expect(batch.body.failure_recipients).toEqual([
      { error_code: '50009', error_message: 'out of freq', mobile: '13800138001', temp_para: para },
    ])
    // One use per batch: the next batch goes through whole.
    expect((await call(app, 'GET', '/_sandbox/faults')).body.faults).toEqual([])
  })

  it('fails that recipient of a batch schedule at submission', async () => {
    const { app } = await createTestApp()
    await arm(app, { path: '*', code: 50006, match: { mobile: '13800138001' } })
    const res = await call(app, 'POST', '/v1/schedule/batch', {
      send_time: await sendTimeIn(app, 3_600_000),
      temp_id: 2,
      recipients: ['13800138000', '13800138001'].map(mobile => ({ mobile, temp_para: para })),
    })
    expect(res.body).toMatchObject({ success_count: 1, failure_count: 1 })
    expect(res.body.failure_recipients[0]).toMatchObject({ error_code: '50006', mobile: '13800138001' })
  })

  it('fails only the pushes and device calls that name that registration_id', async () => {
    const { app } = await createTestApp()
    await arm(app, { path: '/v3/push', code: 1011, times: 3, match: { registration_id: ANDROID_2 } })
    expect((await call(app, 'POST', '/v3/push', pushBody())).status).toBe(200)
    const named = pushBody({ audience: { registration_id: [ANDROID_1, ANDROID_2] } })
    // The vendor's message (its maker takes only the msg_id); "injected fault" where it needs more.
    expect((await call(app, 'POST', '/v3/push', named)).body.error).toEqual({
      code: 1011,
      message: 'cannot find user by this audience or has been inactive for more than 255 days',
    })
    const missing = await arm(app, { path: '/v3/push/validate', code: 1002 })
    expect(missing.body).toMatchObject({ status: 400, message: 'injected fault' })
    // An alias reaching the device is not a name for it: the request is matched on what it says.
    expect((await call(app, 'POST', '/v3/push', pushBody({ audience: { alias: ['alias2'] } }))).status).toBe(
      200,
    )

    await arm(app, {
      path: '/v3/devices/:registration_id',
      code: 7002,
      match: { registration_id: ANDROID_1 },
    })
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_2}`)).status).toBe(200)
    expect((await call(app, 'GET', `/v3/devices/${ANDROID_1}`)).body.error.code).toBe(7002)
  })
})
