import { describe, expect, it } from 'vitest'
import {
  type Clock,
  createApp,
  DEFAULT_APP,
  type Removed,
  SandboxClient,
  SandboxError,
} from '../../client/src/index.js'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../../src/seed/fixtures.js'
import { keysIn, keysOf } from './keys.js'
import { listening } from './sandbox.js'

// The client's app, clock and reset calls against a sandbox on a real port.

const s = listening()
const MOBILE = '13800138000'
const notification = { mobile: MOBILE, temp_id: 2, temp_para: { order: 'P1', days: '1' } }
const reversed = (text: string) => [...text].reverse().join('')

/** What the call refused with: status, code, and the message's start. */
async function refusal(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(SandboxError)
  const { status, code, message } = err as SandboxError
  return { status, code, message }
}

describe('createApp', () => {
  it('makes an app of its own, with the fixtures and a developer of its own', async () => {
    const sb = await s.newApp()
    expect(sb.appKey).toMatch(/^client[a-z0-9]{18}$/)
    expect(sb.masterSecret).toMatch(/^[a-z0-9]{24}$/)
    const app = await sb.app()
    expect(app).toMatchObject({
      app_key: sb.appKey,
      blacklisted: false,
      balances: { balance: 10_000, voice: 1_000, industry: 10_000, market: 10_000 },
      developer: { dev_key: reversed(sb.appKey), dev_secret: reversed(sb.masterSecret), frozen: false },
      clock: { now: s.clock.now(), offset_ms: 0 },
    })
    // Its credentials are the vendor's too.
    expect((await s.vendor(sb, 'POST', '/v1/messages', notification)).status).toBe(200)
    expect((await sb.messages()).messages).toHaveLength(1)
    // Another app sees none of it.
    expect((await (await s.newApp()).messages()).messages).toEqual([])
  })

  it('refuses a prefix that would not make a well-formed appKey', async () => {
    await expect(createApp({ baseUrl: s.url, prefix: 'no-dashes' })).rejects.toThrow(/prefix/)
  })

  it('talks to the default app when given no credentials', async () => {
    expect(DEFAULT_APP).toEqual({ appKey: DEFAULT_APP_KEY, masterSecret: DEFAULT_MASTER_SECRET })
    const sb = new SandboxClient({ baseUrl: `${s.url}/` })
    expect(sb.baseUrl).toBe(s.url)
    expect((await sb.app()).app_key).toBe('7d431e42dfa6a6d693ac2d04')
  })
})

describe('patchApp', () => {
  it('tops up a balance, and the next send is paid from it', async () => {
    const sb = await s.newApp()
    const patched = await sb.patchApp({ balances: { industry: 5 } })
    expect(patched.balances).toEqual({ balance: 10_000, voice: 1_000, industry: 5, market: 10_000 })
    expect(await sb.app()).toEqual(patched)
    await s.vendor(sb, 'POST', '/v1/messages', notification)
    expect((await s.vendor(sb, 'GET', '/v1/accounts/app')).body.app_industry).toBe(4)
  })

  it('blacklists the app for /v1 and /v3, while its control plane still answers', async () => {
    const sb = await s.newApp()
    expect((await sb.patchApp({ blacklisted: true })).blacklisted).toBe(true)
    expect((await s.vendor(sb, 'POST', '/v1/messages', notification)).body.error.code).toBe(50036)
    await sb.patchApp({ blacklisted: false, settings: { rate_limits: { push: 3 } } })
    expect((await s.vendor(sb, 'POST', '/v1/messages', notification)).status).toBe(200)
    expect((await sb.app()).settings.rate_limits).toEqual({ push: 3, device: 600, report: 2400 })
  })

  it('throws the refusal as a SandboxError naming the key path', async () => {
    const sb = await s.newApp()
    expect(await refusal(sb.patchApp({ balances: { industry: -1 } }))).toEqual({
      status: 400,
      code: 90020,
      message: expect.stringMatching(/^PATCH \/_sandbox\/app: 90020 "balances\.industry": /),
    })
    // A callback URL nobody answers fails the vendor's URL check.
    const check = await refusal(sb.patchApp({ callback_url: 'http://127.0.0.1:9/cb' }))
    expect(check).toMatchObject({ status: 400, code: 90030 })
  })
})

describe('reset and deleteApp', () => {
  it('reset: what the app did is gone, its settings and clock are back', async () => {
    const sb = await s.newApp()
    await s.vendor(sb, 'POST', '/v1/messages', notification)
    await sb.patchApp({ balances: { market: 1 } })
    await sb.advanceClock(60_000)
    const app = await sb.reset()
    expect(app).toMatchObject({ balances: { market: 10_000 }, clock: { offset_ms: 0 } })
    expect((await sb.messages()).messages).toEqual([])
  })

  it('deleteApp: removed, and provisioned afresh by the next request', async () => {
    const sb = await s.newApp()
    await sb.patchApp({ sms_enabled: false })
    const removed = await sb.deleteApp()
    expect(removed).toEqual({ app_key: sb.appKey, deleted: true, recreated: false })
    expect(keysIn(removed)).toEqual(keysOf<Removed>({ app_key: true, deleted: true, recreated: true }))
    expect((await sb.app()).sms_enabled).toBe(true)
  })
})

describe('the clock', () => {
  it('moves forward by a duration or to a time, and never back (409 90053)', async () => {
    const sb = await s.newApp()
    const clock = await sb.clock()
    expect(clock).toEqual({ now: s.clock.now(), offset_ms: 0 })
    expect(keysIn(clock)).toEqual(keysOf<Clock>({ now: true, offset_ms: true }))
    expect(await sb.advanceClock(2_000)).toEqual({ now: s.clock.now() + 2_000, offset_ms: 2_000 })
    const at = Date.parse('2030-01-01T00:00:00.000Z')
    expect((await sb.setClock('2030-01-01T08:00:00+08:00')).now).toBe(at)
    expect((await sb.setClock(new Date(at + 1_000))).now).toBe(at + 1_000)
    expect(await refusal(sb.setClock(at))).toEqual({
      status: 409,
      code: 90053,
      message: 'POST /_sandbox/clock: 90053 the clock only moves forward',
    })
  })
})

describe('credentials', () => {
  it('a wrong secret is 401 90002', async () => {
    const sb = new SandboxClient({ baseUrl: s.url, masterSecret: 'wrongsecret0000000000000' })
    expect(await refusal(sb.app())).toMatchObject({ status: 401, code: 90002 })
  })
})
