import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { redirectHttpsTo } from '../push/https-redirect.js'

// The production advisor on whom a push reaches (advisor/audience.ts; docs/advisor.md): an APNs
// environment none of the targeted iOS devices is built for, a vendor quota about to run out or
// used up. Production accepts these pushes: warnings, never refusals, STRICT_WARNINGS or not.

const require = createRequire(import.meta.url)
const { JPushAsync: JPush } = require('jpush-async')

interface Warning {
  rule: string
  message: string
  source: string
}
type Auth = { authorization: string }
const tenant = (): Auth & { key: string; secret: string } => {
  const key = newKey('a')
  const secret = newKey('s')
  return { authorization: basic(key, secret), key, secret }
}
const headers = (a: Auth) => ({ authorization: a.authorization })

async function device(app: SandboxApp, auth: Auth, body: object): Promise<string> {
  const res = await call(app, 'POST', '/_sandbox/push/devices', body, headers(auth))
  expect(res.status).toBe(200)
  return res.body.registration_id
}

async function warned(app: SandboxApp, auth: Auth, rule: string) {
  const { body } = await call(app, 'GET', `/_sandbox/requests?warning=${rule}`, undefined, headers(auth))
  return body.requests as Array<{ path: string; status: number; warnings: Warning[] }>
}

async function eventWarnings(app: SandboxApp, auth: Auth): Promise<Warning[][]> {
  const { body } = await call(app, 'GET', '/_sandbox/events?kind=request.completed', undefined, headers(auth))
  return (body.events as Array<{ data: { path: string; warnings: Warning[] } }>)
    .filter(e => e.data.path.startsWith('/v3/push'))
    .map(e => e.data.warnings)
}

const toRids = (rids: string[], more: object = {}) => ({
  platform: 'all',
  audience: { registration_id: rids },
  notification: { alert: 'hi' },
  ...more,
})

describe('apns-environment', () => {
  it('jpush-async (apns_production false unless told) to production builds: accepted, warned in journal and event', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const prod = await device(app, auth, { platform: 'ios' }) // a production build, the default
    await app.listen({ port: 0, host: '127.0.0.1' })
    const restore = redirectHttpsTo((app.server.address() as AddressInfo).port)
    try {
      const client = JPush.buildClient({ appKey: auth.key, masterSecret: auth.secret, isDebug: false })
      const res = await client
        .push()
        .setPlatform(JPush.ALL)
        .setAudience(JPush.registration_id(prod))
        .setNotification('Hi', JPush.ios('Parcel left'))
        .send()
      expect(res.msg_id).toMatch(/^\d{17}$/)
    } finally {
      restore()
    }
    const [entry] = await warned(app, auth, 'apns-environment')
    expect(entry).toMatchObject({ path: '/v3/push', status: 200 })
    expect(entry!.warnings).toEqual([
      {
        rule: 'apns-environment',
        message: expect.stringContaining('options.apns_production is false (APNs development)'),
        source: expect.stringContaining('jpush-api-php-client#57'),
      },
    ])
    expect(await eventWarnings(app, auth)).toEqual([entry!.warnings])
  })

  it('plain HTTP: the header when asked; a broadcast too; nothing when one device matches or no iOS device is targeted', async () => {
    const { app } = await createTestApp({ strictWarnings: true })
    const auth = tenant()
    const dev = await device(app, auth, { platform: 'ios', apns_environment: 'development' })
    const prod = await device(app, auth, { platform: 'ios' })
    const android = await device(app, auth, { platform: 'android' })
    const on = { ...headers(auth), 'x-sandbox-warnings': 'on' }

    // Absent apns_production is production: the development build alone gets nothing. Not refused
    // under STRICT_WARNINGS: JPush accepts it (APNs refuses the token).
    const wrong = await call(app, 'POST', '/v3/push', toRids([dev]), on)
    expect(wrong.status).toBe(200)
    expect(wrong.headers['x-sandbox-warning']).toMatch(
      /^apns-environment; options\.apns_production is true or absent \(APNs production\) but the push's 1 iOS device\(s\) are development builds/,
    )
    // A broadcast (the set-based fan-out) to the app's devices, with apns_production false: the
    // production build misses it, the development one gets it: no warning.
    const all = { platform: 'all', audience: 'all', notification: { alert: 'hi' } }
    const mixed = await call(app, 'POST', '/v3/push', { ...all, options: { apns_production: false } }, on)
    expect(mixed.status).toBe(200)
    expect(mixed.headers['x-sandbox-warning']).toBeUndefined()
    const right = await call(app, 'POST', '/v3/push', toRids([prod, android]), on)
    expect(right.headers['x-sandbox-warning']).toBeUndefined()
    const androidOnly = await call(
      app,
      'POST',
      '/v3/push',
      toRids([android], { options: { apns_production: false } }),
      on,
    )
    expect(androidOnly.headers['x-sandbox-warning']).toBeUndefined()
    // Android-only notification: the iOS devices get nothing of it, so nothing to say of APNs.
    const notIos = await call(
      app,
      'POST',
      '/v3/push',
      { platform: 'android', audience: { registration_id: [dev, android] }, notification: { alert: 'a' } },
      on,
    )
    expect(notIos.headers['x-sandbox-warning']).toBeUndefined()
    expect((await warned(app, auth, 'apns-environment')).length).toBe(1)

    // The broadcast path (set-based) warns too when every iOS device is of the other environment:
    // a new app's seeded iOS phones take either (null), made development builds here, as a phone
    // re-registering from another build would.
    const other = tenant()
    await call(app, 'GET', '/_sandbox/push/devices', undefined, headers(other)) // provisions the app
    const appKey = other.key
    for (const d of app.store.pushDevices.list(appKey, false))
      if (d.platform === 'ios')
        app.store.pushDevices.setTwin(appKey, d.registrationId, {
          channel: null,
          apnsEnvironment: 'development',
        })
    const broadcast = await call(app, 'POST', '/v3/push', all, {
      ...headers(other),
      'x-sandbox-warnings': 'on',
    })
    expect(broadcast.status).toBe(200)
    expect(broadcast.headers['x-sandbox-warning']).toMatch(/^apns-environment; /)
    // Validate says it as well (nothing is delivered).
    const validate = await call(app, 'POST', '/v3/push/validate', toRids([dev]), on)
    expect(validate.headers['x-sandbox-warning']).toMatch(/^apns-environment; /)
    expect((await warned(app, auth, 'apns-environment')).map(e => e.path)).toEqual([
      '/v3/push/validate',
      '/v3/push',
    ])
  })
})

describe('apns-environment on template pushes', () => {
  it('/v3/push/template: an entry reaching only development builds is warned of; /v3/push/template/schedule of a past periodical start', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    const template = {
      name: 'Parcel',
      push: { platform: 'all', notification: { ios: { alert: '{{content}}' } } },
    }
    expect(
      (await call(app, 'PUT', '/_sandbox/push/templates/c65b34b96512', template, headers(auth))).status,
    ).toBe(200)
    const dev = await device(app, auth, { platform: 'ios', apns_environment: 'development' })
    const on = { ...headers(auth), 'x-sandbox-warnings': 'on' }
    const params = [{ keys: { content: 'left' }, audience: { registration_id: [dev] } }]
    const pushed = await call(app, 'POST', '/v3/push/template', { id: 'c65b34b96512', params }, on)
    expect(pushed.body.data.push_list[0].code).toBe(0)
    expect(pushed.headers['x-sandbox-warning']).toMatch(
      /^apns-environment; options\.apns_production is true or absent/,
    )
    const right = await call(
      app,
      'POST',
      '/v3/push/template',
      { id: 'c65b34b96512', params: [{ ...params[0], options: { apns_production: false } }] },
      on,
    )
    expect(right.body.data.push_list[0].code).toBe(0)
    expect(right.headers['x-sandbox-warning']).toBeUndefined()
    const scheduled = await call(
      app,
      'POST',
      '/v3/push/template/schedule',
      {
        id: 'c65b34b96512',
        params,
        schedule_name: 'early',
        trigger: {
          periodical: {
            start: '2026-01-01 07:00:00',
            end: '2026-02-01 00:00:00',
            time: '07:30:00',
            time_unit: 'day',
            frequency: 1,
          },
        },
      },
      on,
    )
    expect(scheduled.body.data.schedule_list[0].code).toBe(0)
    expect(scheduled.headers['x-sandbox-warning']).toMatch(/^schedule-past; /)
    expect((await warned(app, auth, 'apns-environment')).map(e => e.path)).toEqual(['/v3/push/template'])
  })
})

describe('vendor-quota-low and vendor-quota-exhausted', () => {
  it('warns once ≥ 90% of a vendor quota is used, then of a used-up quota; never refused', async () => {
    const { app } = await createTestApp({ strictWarnings: true })
    const auth = tenant()
    await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { quota: { xiaomi_quota: { operation: { total: 10, used: 7 } } } } },
      headers(auth),
    )
    const mi = await device(app, auth, { platform: 'android', channel: 'xiaomi', online: false })
    const on = { ...headers(auth), 'x-sandbox-warnings': 'on' }
    const body = toRids([mi])

    const first = await call(app, 'POST', '/v3/push', body, on) // 8 used: 2 left, not low
    expect(first.status).toBe(200)
    expect(first.headers['x-sandbox-warning']).toBeUndefined()
    const second = await call(app, 'POST', '/v3/push', body, on) // 9 used: 1 left of 10
    expect(second.status).toBe(200)
    expect(second.headers['x-sandbox-warning']).toBe(
      "vendor-quota-low; xiaomi's operation quota has 1 of 10 left today (? 90% used): once used up, " +
        'its devices go over JPush and an ospush push is refused with 1012; cavlabs/jiguang-sdk-go api/jpush/push/v3_get_quota.go (GET /v3/push/quota: total and used per vendor and kind); cavlabs/jiguang-sdk-go api/jpush/push/options/options.go:184-186 (ospush over quota: 1012)',
    )
    await call(app, 'POST', '/v3/push', body, on) // the last one: 0 left
    const over = await call(app, 'POST', '/v3/push', body, on)
    expect(over.status).toBe(200)
    expect(over.headers['x-sandbox-warning']).toMatch(
      /^vendor-quota-exhausted; xiaomi's operation quota \(10 a day\) is used up: 1 device\(s\) went over JPush/,
    )
    expect((await warned(app, auth, 'vendor-quota-low')).length).toBe(2)
    const [exhausted] = await warned(app, auth, 'vendor-quota-exhausted')
    expect(exhausted!.warnings.map(w => w.rule)).toEqual(['vendor-quota-exhausted'])
    const events = await eventWarnings(app, auth)
    expect(events.map(w => w.map(x => x.rule)).reverse()).toEqual([
      [],
      ['vendor-quota-low'],
      ['vendor-quota-low'],
      ['vendor-quota-exhausted'],
    ])
    // ospush over quota is production's refusal already (1012), warning or not.
    const ospush = await call(
      app,
      'POST',
      '/v3/push',
      toRids([mi], { options: { third_party_channel: { xiaomi: { distribution: 'ospush' } } } }),
      on,
    )
    expect(ospush.body.error.code).toBe(1012)
  })

  it('says nothing of a push that takes no counted quota: an online phone, a system message, no total', async () => {
    const { app } = await createTestApp()
    const auth = tenant()
    await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { quota: { xiaomi_quota: { operation: { total: 1, used: 1 } } } } },
      headers(auth),
    )
    const online = await device(app, auth, { platform: 'android', channel: 'xiaomi' })
    const oppo = await device(app, auth, { platform: 'android', channel: 'oppo', online: false })
    const on = { ...headers(auth), 'x-sandbox-warnings': 'on' }
    for (const body of [
      toRids([online]), // secondary_push: online, over JPush
      toRids([oppo]), // OPPO: no total set
    ]) {
      const res = await call(app, 'POST', '/v3/push', body, on)
      expect(res.status).toBe(200)
      expect(res.headers['x-sandbox-warning']).toBeUndefined()
    }
    expect(await warned(app, auth, 'any')).toEqual([])
  })
})
