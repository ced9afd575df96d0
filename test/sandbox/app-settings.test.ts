import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { pushBody, rate } from '../push/helpers.js'

// GET and PATCH /_sandbox/app: the calling app's settings at runtime, by the seed file's rules.

const START = Date.parse('2026-01-01T00:00:00.000Z')
const notification = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'P1', days: '1' } }

function tenant() {
  const appKey = newKey('p')
  const secret = newKey('s')
  return { appKey, secret, auth: { authorization: basic(appKey, secret) } }
}

const reversed = (s: string) => [...s].reverse().join('')

describe('GET /_sandbox/app', () => {
  it('describes the app with the keys of a seed file entry, its developer and its clock', async () => {
    const { app } = await createTestApp()
    const t = tenant()
    const res = await call(app, 'GET', '/_sandbox/app', undefined, t.auth)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      app_key: t.appKey,
      blacklisted: false,
      sms_enabled: true,
      ip_whitelist: [],
      sensitive_words: [],
      unsubscribed: [],
      callback_url: null,
      balances: { balance: 10_000, voice: 1_000, industry: 10_000, market: 10_000 },
      settings: {
        rate_limits: { push: 600, device: 600, report: 2400 },
        broadcasts_per_day: 10,
        segments: {},
        abtests: {},
        push: { strict_types: false },
      },
      developer: {
        dev_key: reversed(t.appKey),
        dev_secret: reversed(t.secret),
        frozen: false,
        balances: { balance: 100_000, voice: 10_000, industry: 100_000, market: 100_000 },
      },
      clock: { now: START, offset_ms: 0 },
    })
  })
})

describe('PATCH /_sandbox/app', () => {
  it('tops up a balance, and the next send is paid from it', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    const res = await call(app, 'PATCH', '/_sandbox/app', { balances: { industry: 5 } }, auth)
    expect(res.status).toBe(200)
    // Buckets left out keep their value; the answer is the new state.
    expect(res.body.balances).toEqual({ balance: 10_000, voice: 1_000, industry: 5, market: 10_000 })
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body).toEqual(res.body)
    await call(app, 'POST', '/v1/messages', notification, auth)
    expect((await call(app, 'GET', '/v1/accounts/app', undefined, auth)).body.app_industry).toBe(4)
  })

  it('blacklists the app on /v1 and /v3 at once, and back', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    expect((await call(app, 'PATCH', '/_sandbox/app', { blacklisted: true }, auth)).body.blacklisted).toBe(
      true,
    )
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).body.error.code).toBe(50036)
    expect((await call(app, 'POST', '/v3/push', pushBody(), auth)).body.error.code).toBe(2003)
    // The control plane still answers a blacklisted app, so it can lift its own blacklist.
    await call(app, 'PATCH', '/_sandbox/app', { blacklisted: false }, auth)
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).status).toBe(200)
  })

  it('lowers a rate limit within the current window: the calls already made count against it', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    for (let i = 0; i < 3; i++)
      expect((await call(app, 'POST', '/v3/push', pushBody(), auth)).status).toBe(200)
    const patched = await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { rate_limits: { push: 3 } } },
      auth,
    )
    expect(patched.body.settings.rate_limits).toEqual({ push: 3, device: 600, report: 2400 })
    const limited = await call(app, 'POST', '/v3/push', pushBody(), auth)
    expect(limited.status).toBe(429)
    expect(rate(limited.headers).slice(0, 2)).toEqual(['3', '0'])
    // Another group keeps its own limit.
    expect(rate((await call(app, 'GET', '/v3/tags', undefined, auth)).headers)[0]).toBe('600')
  })

  it("freezes the app's developer: its sends are refused (50301, push 2007)", async () => {
    const { app } = await createTestApp()
    const t = tenant()
    const res = await call(app, 'PATCH', '/_sandbox/app', { developer: { frozen: true } }, t.auth)
    expect(res.body.developer.frozen).toBe(true)
    expect((await call(app, 'POST', '/v1/messages', notification, t.auth)).body.error.code).toBe(50301)
    expect((await call(app, 'POST', '/v3/push', pushBody(), t.auth)).body.error.code).toBe(2007)
    const dev = { authorization: basic(reversed(t.appKey), reversed(t.secret)) }
    expect((await call(app, 'GET', '/v1/accounts/dev', undefined, dev)).body.error.code).toBe(50301)
  })

  it("sets the developer's balances, bucket by bucket", async () => {
    const { app } = await createTestApp()
    const t = tenant()
    const res = await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { developer: { balances: { voice: null } } },
      t.auth,
    )
    expect(res.body.developer.balances).toEqual({
      balance: 100_000,
      voice: null,
      industry: 100_000,
      market: 100_000,
    })
  })

  it('changes only the calling app', async () => {
    const { app } = await createTestApp()
    const a = tenant()
    const b = tenant()
    await call(app, 'PATCH', '/_sandbox/app', { blacklisted: true, balances: { market: 0 } }, a.auth)
    const other = await call(app, 'GET', '/_sandbox/app', undefined, b.auth)
    expect(other.body).toMatchObject({ blacklisted: false, balances: { market: 10_000 } })
  })

  it('merges settings and rate_limits key by key; segments, lists and flags are replaced', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { rate_limits: { device: 50 }, segments: { a: ['x'] } } },
      auth,
    )
    const res = await call(
      app,
      'PATCH',
      '/_sandbox/app',
      { settings: { rate_limits: { push: 7 }, segments: { b: ['y'] } }, ip_whitelist: ['10.0.0.1'] },
      auth,
    )
    expect(res.body.settings).toEqual({
      rate_limits: { push: 7, device: 50, report: 2400 },
      broadcasts_per_day: 10,
      segments: { b: ['y'] },
      abtests: {},
      push: { strict_types: false },
    })
    // The whitelist now keeps inject's 127.0.0.1 out of /v1 (50035), not out of /_sandbox.
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).body.error.code).toBe(50035)
    expect((await call(app, 'PATCH', '/_sandbox/app', { ip_whitelist: [] }, auth)).status).toBe(200)
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).status).toBe(200)
  })

  it('replaces the unsubscribed mobiles and the sensitive words, and turns SMS off', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    const marketing = { mobile: '13800138000', temp_id: 3, temp_para: { name: '王' } }
    await call(app, 'PATCH', '/_sandbox/app', { unsubscribed: ['+8613800138000'] }, auth)
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body.unsubscribed).toEqual([
      '13800138000',
    ])
    expect((await call(app, 'POST', '/v1/messages', marketing, auth)).body.error.code).toBe(50024)
    await call(app, 'PATCH', '/_sandbox/app', { unsubscribed: [], sensitive_words: ['订单'] }, auth)
    expect((await call(app, 'POST', '/v1/messages', marketing, auth)).status).toBe(200)
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).body.error.code).toBe(50037)
    await call(app, 'PATCH', '/_sandbox/app', { sms_enabled: false }, auth)
    expect(
      (await call(app, 'POST', '/v1/codes', { mobile: '13800138000', temp_id: 1 }, auth)).body.error.code,
    ).toBe(50008)
  })

  it('is durable: a restart on the same database still has the change', async () => {
    const config = testConfig({ database: join(mkdtempSync(join(tmpdir(), 'patch-')), 'sandbox.db') })
    const { auth } = tenant()
    const first = await buildApp(config, { clock: new ManualClock() })
    await call(first, 'PATCH', '/_sandbox/app', { balances: { voice: 3 }, developer: { frozen: true } }, auth)
    await first.close()
    const second = await buildApp(config, { clock: new ManualClock() })
    try {
      const res = await call(second, 'GET', '/_sandbox/app', undefined, auth)
      expect(res.body).toMatchObject({ balances: { voice: 3 }, developer: { frozen: true } })
    } finally {
      await second.close()
    }
  })

  it.each([
    [
      'a negative balance',
      { balances: { industry: -1 } },
      '"balances.industry": Too small: expected number to be >=0',
    ],
    [
      'a flag that is not a boolean',
      { blacklisted: 'yes' },
      '"blacklisted": Invalid input: expected boolean, received string',
    ],
    ['a misspelt key', { blacklist: true }, '"blacklist": unknown key'],
    [
      'a misspelt rate group',
      { settings: { rate_limits: { pushes: 3 } } },
      '"settings.rate_limits.pushes": unknown key',
    ],
    [
      'a rate limit of 0',
      { settings: { rate_limits: { push: 0 } } },
      '"settings.rate_limits.push": Too small: expected number to be >0',
    ],
    ['a callback_url that is no URL', { callback_url: 'nope' }, '"callback_url": Invalid URL'],
    [
      'the appKey',
      { app_key: 'x' },
      '"app_key": cannot be changed: use another appKey (a new one is provisioned at its first request)',
    ],
    [
      'the clock',
      { clock: { offset_ms: 0 } },
      '"clock": cannot be changed: move it with POST /_sandbox/clock; POST /_sandbox/reset sets it back',
    ],
    [
      'the templates',
      { templates: [] },
      '"templates": cannot be changed: use /v1/templates and /_sandbox/sms/templates/{temp_id}/review',
    ],
    [
      'the devSecret',
      { developer: { dev_secret: 'x' } },
      '"developer.dev_secret": cannot be changed: it is set where the developer is defined',
    ],
  ])('refuses %s with 400 90020 naming the key path, and changes nothing', async (_what, body, message) => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    const before = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body
    const res = await call(app, 'PATCH', '/_sandbox/app', body, auth)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { error: { code: 90020, message } },
    })
    expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body).toEqual(before)
  })

  it('takes an empty object as no change, and refuses no body (90011)', async () => {
    const { app } = await createTestApp()
    const { auth } = tenant()
    const before = (await call(app, 'GET', '/_sandbox/app', undefined, auth)).body
    expect((await call(app, 'PATCH', '/_sandbox/app', {}, auth)).body).toEqual(before)
    const none = await call(app, 'PATCH', '/_sandbox/app', undefined, auth)
    expect({ status: none.status, code: none.body.error.code }).toEqual({ status: 400, code: 90011 })
  })
})
