import { describe, expect, it } from 'vitest'
import { pushRules, pushRulesApply } from '../../src/advisor/push.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'

// The production advisor on /v3/push (docs/advisor.md): what the push itself says that production
// treats otherwise; a refusing rule is refused only under STRICT_WARNINGS.

const tenant = () => ({ authorization: basic(newKey('p'), newKey('s')) })
const push = (options: object, more: object = {}) => ({
  platform: 'all',
  audience: 'all',
  notification: { android: { alert: 'hi' } },
  options,
  ...more,
})
const rules = async (app: Awaited<ReturnType<typeof createTestApp>>['app'], auth: object) => {
  const { body } = await call(app, 'GET', '/_sandbox/requests?path=/v3/push', undefined, auth as never)
  return (body.requests as Array<{ warnings: Array<{ rule: string; source: string }> }>).map(r =>
    r.warnings.map(w => w.rule),
  )
}

describe('the advisor on JPush pushes', () => {
  it('warns of vendor channels configured without their classification', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const sent = await call(
      app,
      'POST',
      '/v3/push',
      push({
        third_party_channel: { xiaomi: { distribution: 'ospush' }, oppo: { notify_level: 2 }, vivo: {} },
      }),
      { ...auth, 'x-sandbox-warnings': 'on' },
    )
    expect(sent.status).toBe(200)
    expect(sent.headers['x-sandbox-warning']).toHaveLength(4)
    expect(await rules(app, auth)).toEqual([
      ['xiaomi-channel-id', 'oppo-category', 'oppo-notify-level-category', 'vivo-classification'],
    ])
  })

  it('says nothing of a push that classifies for every vendor it configures', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const options = {
      classification: 1,
      third_party_channel: {
        xiaomi: { channel_id: 'im' },
        oppo: { category: 'IM', notify_level: 2 },
        vivo: {},
      },
    }
    const sent = await call(app, 'POST', '/v3/push', push(options), { ...auth, 'x-sandbox-warnings': 'on' })
    expect(sent.status).toBe(200)
    expect(sent.headers['x-sandbox-warning']).toBeUndefined()
    expect(await rules(app, auth)).toEqual([[]])
  })

  it('accepts a screen-on push with a custom message, warning; STRICT_WARNINGS refuses it with 1035', async () => {
    const body = push({ active_push: true }, { message: { msg_content: 'x' } })
    const lenient = await createTestApp()
    const a = tenant()
    expect((await call(lenient.app, 'POST', '/v3/push', body, a)).status).toBe(200)
    expect(await rules(lenient.app, a)).toEqual([['active-push-custom-message']])

    const strict = await createTestApp({ strictWarnings: true })
    const b = tenant()
    const refused = await call(strict.app, 'POST', '/v3/push', body, b)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: { code: 1035, message: 'active_push does not support custom message or big_push_duration' },
    })
    const { body: journal } = await call(strict.app, 'GET', '/_sandbox/requests?warning=any', undefined, b)
    expect(journal.requests[0]).toMatchObject({
      status: 400,
      code: 1035,
      reason: expect.stringContaining('STRICT'),
    })
    // The push was not made: nothing reached the devices.
    const pushes = await call(strict.app, 'GET', '/_sandbox/push/messages', undefined, b)
    expect(pushes.body.messages).toEqual([])
    // Per app: strict off again for this app.
    await call(strict.app, 'PATCH', '/_sandbox/app', { settings: { warnings: { strict: false } } }, b)
    expect((await call(strict.app, 'POST', '/v3/push', body, b)).status).toBe(200)
  })

  it('warns of importance HIGH on Honor (Huawei only), not on Huawei; never refused', async () => {
    const { app } = await createTestApp({ strictWarnings: true })
    const auth = tenant()
    const on = { ...auth, 'x-sandbox-warnings': 'on' }
    const honor = await call(
      app,
      'POST',
      '/v3/push',
      push({ third_party_channel: { honor: { importance: 'HIGH' } } }),
      on,
    )
    expect(honor.status).toBe(200)
    expect(honor.headers['x-sandbox-warning']).toBe(
      'honor-importance-high; third_party_channel.honor.importance is HIGH, which only Huawei supports: ' +
        'Honor takes LOW or NORMAL; cavlabs/jiguang-sdk-go api/jpush/push/options/options.go:243-246 ' +
        '(importance HIGH: Huawei only; Honor takes LOW, NORMAL)',
    )
    const huawei = await call(
      app,
      'POST',
      '/v3/push',
      push({ third_party_channel: { huawei: { importance: 'HIGH' }, honor: { importance: 'NORMAL' } } }),
      on,
    )
    expect(huawei.headers['x-sandbox-warning']).toBeUndefined()
    expect(await rules(app, auth)).toEqual([[], ['honor-importance-high']])
  })
})

describe("the push rules' gate (advisor/push.ts, pushRulesApply)", () => {
  // A push naming none of the fields the gate reads: the rules are skipped, and must find nothing.
  const plain = {
    platform: 'all',
    audience: { alias: ['a'] },
    notification: {
      alert: 'hi',
      android: { alert: 'a', channel_id: '', priority: 2, category: 'x', importance: 'HIGH' },
      ios: { alert: 'i', sound: 'default', 'mutable-content': true },
      quickapp: { alert: 'q', title: 't', page: '/p' },
    },
    message: { msg_content: 'm', title: 't' },
    sms_message: { temp_id: 1, delay_time: 0 },
    options: {
      time_to_live: 60,
      apns_production: false,
      classification: 1,
      big_push_duration: 10,
      override_msg_id: 1,
      notification_importance: 'HIGH',
      business_operation_code: 'x',
    },
    callback: { url: 'https://example.com', type: 15 },
  }
  it('skips only pushes no rule can warn about', () => {
    expect(pushRulesApply(plain)).toBe(false)
    for (const message of [false, true])
      for (const r of pushRules) expect(r.check({ body: plain, message }), r.rule).toBeUndefined()
    const some = (extra: object) => pushRulesApply({ ...plain, ...extra })
    expect(some({ options: { active_push: true } })).toBe(true)
    expect(some({ options: { need_backup: true } })).toBe(true)
    expect(some({ options: { third_party_channel: { honor: { importance: 'HIGH' } } } })).toBe(true)
    expect(some({ notification: { hmos: { alert: 'h' } } })).toBe(true)
  })
})
