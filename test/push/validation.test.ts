import { describe, expect, it } from 'vitest'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { ANDROID_1, IOS_1, pushBody } from './helpers.js'

const without = (key: string) => {
  const b = pushBody()
  delete b[key]
  return b
}

// jpush-api.md §5.11, one row each, on both /v3/push and /v3/push/validate.
const rows: Array<[string, unknown, number]> = [
  ['body missing platform', without('platform'), 1002],
  ['body missing audience', without('audience'), 1002],
  ['neither notification nor message', without('notification'), 1002],
  ['message without msg_content', pushBody({ notification: undefined, message: { title: 't' } }), 1002],
  ['hmos: {}', pushBody({ notification: { hmos: {} } }), 1002],
  ['sms_message without delay_time', pushBody({ sms_message: { temp_id: 2 } }), 1002],
  ['platform a string other than all', pushBody({ platform: 'android' }), 1003],
  ['platform array with an unknown value', pushBody({ platform: ['android', 'blackberry'] }), 1003],
  ['audience a string other than all', pushBody({ audience: 'everyone' }), 1003],
  ['notification not an object', pushBody({ notification: 'hello' }), 1003],
  ['notification.android not an object', pushBody({ notification: { android: 'x' } }), 1003],
  ['notification.ios not an object', pushBody({ notification: { ios: 5 } }), 1003],
  [
    'android.builder_id not a number',
    pushBody({ notification: { android: { alert: 'a', builder_id: 'one' } } }),
    1003,
  ],
  ['android: {}', pushBody({ notification: { android: {} } }), 1003],
  ['ios: {}', pushBody({ notification: { ios: {} } }), 1003],
  ['android without alert', pushBody({ notification: { android: { title: 't' } } }), 1003],
  ['ios without alert', pushBody({ notification: { ios: { sound: 'default' } } }), 1003],
  ['hmos without alert', pushBody({ notification: { hmos: { title: 't' } } }), 1003],
  ['malformed registration_id', pushBody({ audience: { registration_id: ['not-an-id!'] } }), 1003],
  [
    'registration_id the app does not have',
    pushBody({ audience: { registration_id: ['140fe1da9e22a23f92f'] } }),
    1003,
  ],
  ['empty value in an audience array', pushBody({ audience: { tag: ['tag1', ''] } }), 1003],
  ['more than 20 tags', pushBody({ audience: { tag: Array.from({ length: 21 }, (_, i) => `t${i}`) } }), 1003],
  ['a tag over 40 bytes', pushBody({ audience: { tag: ['标'.repeat(14)] } }), 1003],
  ['override_msg_id unknown', pushBody({ options: { override_msg_id: '18100000000000999' } }), 1003],
  ['invalid time_to_live', pushBody({ options: { time_to_live: -1 } }), 1003],
  ['time_to_live over 10 days', pushBody({ options: { time_to_live: 864_001 } }), 1003],
  [
    'cid of another app',
    pushBody({ cid: '0123456789abcdef01234567-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b' }),
    1003,
  ],
  [
    'content_available instead of content-available',
    pushBody({ notification: { ios: { alert: 'a', content_available: true } } }),
    1009,
  ],
  [
    'build_id instead of builder_id',
    pushBody({ notification: { android: { alert: 'a', build_id: 1 } } }),
    1009,
  ],
  // docs2019's 1009 row: "除文档中指定的字段外，还需传递自定义的 key 请在 extras 中填写".
  [
    'a custom key in a platform object (custom keys go in extras)',
    pushBody({ notification: { android: { alert: 'a', my_custom: 'x' } } }),
    1009,
  ],
  ['a custom key in ios', pushBody({ notification: { ios: { alert: 'a', deeplink: 'x' } } }), 1009],
  ['a custom key in hmos', pushBody({ notification: { hmos: { alert: 'a', category: 'IM', x: 1 } } }), 1009],
  [
    'android notification over 4000 bytes',
    pushBody({ notification: { android: { alert: 'x'.repeat(4001) } } }),
    1005,
  ],
  ['winphone over 1000 bytes', pushBody({ notification: { winphone: { alert: 'w'.repeat(1001) } } }), 1005],
  [
    'message over 4000 bytes',
    pushBody({ notification: undefined, message: { msg_content: 'm'.repeat(4001) } }),
    1005,
  ],
  [
    'ios object over 2000 bytes',
    pushBody({ audience: { registration_id: [IOS_1] }, notification: { ios: { alert: '好'.repeat(700) } } }),
    1005,
  ],
]

describe.each(['/v3/push', '/v3/push/validate'])('%s validation (§5.11)', path => {
  it.each(rows)('%s → %i', async (_name, body, code) => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', path, body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
    expect(typeof res.body.error.message).toBe('string')
    expect(res.body.msg_id).toBeUndefined()
  })

  it('no device matches → 400 1011 with a 17-digit msg_id string', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', path, pushBody({ audience: { tag: ['nobody'] } }))
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(1011)
    expect(res.body.msg_id).toMatch(/^\d{17}$/)
  })
})

describe('what the clients add is tolerated', () => {
  it('unknown top-level and options keys; android.sound; py ios defaults; node sendno above int32', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', {
      platform: ['android', 'ios'],
      audience: { alias: ['alias1'] },
      notification: {
        alert: 'hi',
        ai_opportunity: false,
        ios: { alert: { title: 't', body: 'b' }, badge: '+1', sound: 'default', 'content-available': 1 },
        // docs2019 said Android takes no sound; today's docs list it and both Java SDKs send it.
        android: { alert: 'a', builder_id: 1, sound: 'ding', extras: { my_custom: 'x' } },
      },
      options: { sendno: 4_294_967_294, apns_production: false, classification: 0, custom_flag: true },
      custom_top: 1,
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ sendno: '4294967294', msg_id: expect.stringMatching(/^\d{17}$/) })
    expect(Object.keys(res.body)).toEqual(['sendno', 'msg_id'])
  })

  it('a body that is not JSON is 1003, whatever the content type', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', '{"platform":', { 'content-type': 'text/plain' })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(1003)
  })

  it('a cid of the app is accepted and the sendno defaults to "0"', async () => {
    const { app } = await createTestApp()
    const cid = `${APP_KEY}-6f1d2c3b-4a5e-4f60-8b7a-9c0d1e2f3a4b`
    const res = await call(
      app,
      'POST',
      '/v3/push',
      pushBody({ cid, audience: { registration_id: [ANDROID_1] } }),
    )
    expect(res.status).toBe(200)
    expect(res.body.sendno).toBe('0')
  })
})
