import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'

// One field of an otherwise ordinary body nested 9 000 deep answered 500: whatever read it next
// recursed (JSON.stringify for payload sizes and storage, String() of an array) until the stack
// ran out. The body parser now refuses nesting deeper than 1 000 with the body's own code, and
// no reader turns a value into text before it knows it is a scalar.

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth)
const DEEP = nested(9_000)
const RID = ANDROID_1

/** A JSON body with `deep` spliced in as raw text where `"@"` stands. */
const withDeep = (shape: unknown, deep = DEEP) => JSON.stringify(shape).replace('"@"', deep)

describe('one field nested 9 000 deep', () => {
  const cases: Array<[string, string, number, number, unknown]> = [
    [
      '/v3/push',
      'notification.android.extras',
      400,
      1003,
      pushBody({ notification: { android: { alert: 'a', extras: { k: '@' } } } }),
    ],
    [
      '/v3/push',
      'message.extras',
      400,
      1003,
      pushBody({ message: { msg_content: 'm', extras: { k: '@' } } }),
    ],
    ['/v3/push', 'options.override_msg_id', 400, 1003, pushBody({ options: { override_msg_id: '@' } })],
    ['/v3/push', 'an unknown options key', 400, 1003, pushBody({ options: { flag: '@' } })],
    [
      '/v3/push/validate',
      'notification.ios.extras',
      400,
      1003,
      pushBody({ notification: { ios: { alert: 'a', extras: { k: '@' } } } }),
    ],
    [`/v3/devices/${RID}`, 'mobile', 400, 7002, { mobile: '@' }],
    [`/v3/devices/${RID}`, 'tags.add', 400, 7002, { tags: { add: '@' } }],
    ['/v3/status/message', 'msg_id', 400, 3002, { msg_id: '@', registration_ids: [RID] }],
    ['/_sandbox/push/devices', 'alias', 400, 90020, { platform: 'android', alias: '@' }],
    [
      '/v1/messages',
      'temp_para.order',
      403,
      50007,
      { mobile: '13800138000', temp_id: 2, temp_para: { order: '@' } },
    ],
    ['/v1/messages/batch', 'recipients[0].mobile', 403, 50007, { temp_id: 2, recipients: [{ mobile: '@' }] }],
  ]

  it.each(cases)(
    'POST %s with %s: %i %i, and the app still serves',
    async (url, _field, status, code, shape) => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', url, withDeep(shape))
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code })
      // Where the message is ours (not the vendor's literal "invalid body"), it says why.
      if (code !== 50007 || url.startsWith('/_sandbox'))
        expect(res.body.error.message).toMatch(/deeper than 1000/)
      expect((await call(app, 'POST', '/v3/push', pushBody())).status).toBe(200)
    },
  )

  it('1 000 levels are still read, so an ordinary body is never refused for its depth', async () => {
    const { app } = await createTestApp()
    const ok = pushBody({ notification: { android: { alert: 'a', extras: { k: '@' } } } })
    expect((await call(app, 'POST', '/v3/push/validate', withDeep(ok, nested(996)))).status).toBe(200)
    expect((await call(app, 'POST', '/v3/push/validate', withDeep(ok, nested(997)))).status).toBe(400)
  })
})

// Under the limit, each field answers its own code: an array or an object is not a mobile, an id
// or a parameter, whatever its elements' text (String(["13800138000"]) is "13800138000").
describe('a value that is not a scalar where a scalar is read', () => {
  it('/v3/devices/{rid} mobile: 7002, and the mobile is not set', async () => {
    const { app } = await createTestApp()
    for (const mobile of [['13900000001'], { m: '13900000001' }, JSON.parse(nested(900, '"13900000001"'))]) {
      const res = await call(app, 'POST', `/v3/devices/${RID}`, { mobile })
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 7002, message: 'mobile is invalid' } },
      })
    }
    expect((await call(app, 'GET', `/v3/devices/${RID}`)).body.mobile).not.toBe('13900000001')
  })

  it('/_sandbox/push/devices registration_id, alias, mobile: 90020, and no device is made', async () => {
    const { app } = await createTestApp()
    const before = (await call(app, 'GET', '/_sandbox/push/devices')).body.devices.length
    for (const field of [
      { registration_id: ['1a00000000000000001'] },
      { alias: ['someone'] },
      { mobile: ['13800138000'] },
      { mobile: { n: 13800138000 } },
    ]) {
      const res = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android', ...field })
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 90020 })
      expect(res.body.error.message).toMatch(new RegExp(`^"${Object.keys(field)[0]}": `))
    }
    expect((await call(app, 'GET', '/_sandbox/push/devices')).body.devices).toHaveLength(before)
  })

  it('/v3/push sms_message.temp_para values: 1003', async () => {
    const { app } = await createTestApp()
    for (const value of [['F1'], { v: 'F1' }, JSON.parse(nested(900, '"F1"'))]) {
      const body = pushBody({
        sms_message: { delay_time: 0, temp_id: 2, temp_para: { order: value, days: '1' } },
      })
      const res = await call(app, 'POST', '/v3/push', body)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: { error: { code: 1003, message: 'sms_message.temp_para.order is invalid' } },
      })
    }
  })

  it('/v1/messages/batch echoes a failed recipient’s mobile only when it was a string or a number', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v1/messages/batch', {
      temp_id: 2,
      recipients: [
        { mobile: ['13800138001'], temp_para: { order: 'A', days: '1' } },
        { mobile: 123, temp_para: { order: 'B', days: '1' } },
      ],
    })
    expect(res.status).toBe(200)
    expect(res.body.recipients.map((r: { mobile: string }) => r.mobile)).toEqual(['', '123'])
    expect(res.body.recipients.map((r: { error_code: string }) => r.error_code)).toEqual(['50006', '50006'])
  })
})
