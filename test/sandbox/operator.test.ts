import { describe, expect, it, vi } from 'vitest'
import { ALL_APPS } from '../../src/store/events/requests.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { MOBILE } from '../sms/support.js'
import { listening } from './real-port.js'

// The operator (SANDBOX_OPERATOR, operator:operator by default): lists every app, most recently
// active first, and acts on any one of them with X-Sandbox-App; never on /v1 or /v3.

const operator = { authorization: basic('operator', 'operator') }
const as = (appKey: string) => ({ ...operator, 'x-sandbox-app': appKey })
const tenant = () => {
  const appKey = newKey('op')
  return { appKey, auth: { authorization: basic(appKey, newKey('s')) } }
}
const notice = (mobile: string) => ({ mobile, temp_id: 2, temp_para: { order: 'O1', days: '1' } })

describe('GET /_sandbox/apps', () => {
  it('lists every app, the most recently active first, with its counts and clock', async () => {
    const { app, clock } = await createTestApp()
    const [a, b] = [tenant(), tenant()]
    await call(app, 'POST', '/v1/messages', notice(MOBILE), a.auth)
    await call(app, 'POST', '/v1/messages', { mobile: MOBILE, temp_id: 99 }, a.auth) // refused
    await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android' }, b.auth)
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 5_000 }, b.auth)

    const listed = await call(app, 'GET', '/_sandbox/apps', undefined, operator)
    expect(listed.status, listed.raw).toBe(200)
    const keys = listed.body.apps.map((x: { app_key: string }) => x.app_key)
    expect(keys.slice(0, 2)).toEqual([b.appKey, a.appKey])
    expect(keys).toContain('7d431e42dfa6a6d693ac2d04') // the default app, never used here
    const [first, second] = listed.body.apps
    expect(first).toMatchObject({
      app_key: b.appKey,
      last_request_at: expect.any(String),
      counts: { texts: 0, pushes: 0, requests: 2, refusals: 0 },
      clock: { now: clock.now() + 5_000, offset_ms: 5_000 },
    })
    // The fixtures' devices, and the one registered.
    expect(first.counts.devices).toBeGreaterThan(1)
    expect(second).toMatchObject({ counts: { texts: 1, requests: 2, refusals: 1 } })
    // Each app's newest journaled request, as its journal lists it.
    expect(second.last_request).toEqual({
      seq: expect.any(Number),
      method: 'POST',
      path: '/v1/messages',
      status: 403,
      code: 50013,
      message: 'invalid temp_id',
    })
    const journal = await call(app, 'GET', '/_sandbox/requests?limit=1', undefined, a.auth)
    expect(second.last_request.seq).toBe(journal.body.requests[0].seq)
    expect(first.last_request).toMatchObject({
      method: 'POST',
      path: '/_sandbox/clock',
      status: 200,
      code: null,
    })
    // An app without a journaled request yet (the default one, never used here).
    expect(
      listed.body.apps.find((x: { app_key: string }) => x.app_key === '7d431e42dfa6a6d693ac2d04'),
    ).toMatchObject({
      last_request: null,
    })
    expect(first.activity).toBeGreaterThan(second.activity)
    expect(listed.body.next_after).toBe(first.activity)

    // By prefix; one page after another; only the apps active since.
    const byPrefix = await call(
      app,
      'GET',
      `/_sandbox/apps?prefix=${a.appKey.slice(0, 20)}`,
      undefined,
      operator,
    )
    expect(byPrefix.body.apps.map((x: { app_key: string }) => x.app_key)).toEqual([a.appKey])
    const page = await call(app, 'GET', '/_sandbox/apps?limit=1', undefined, operator)
    expect(page.body.apps).toHaveLength(1)
    const next = await call(
      app,
      'GET',
      `/_sandbox/apps?limit=1&before=${page.body.next_before}`,
      undefined,
      operator,
    )
    expect(next.body.apps.map((x: { app_key: string }) => x.app_key)).toEqual([a.appKey])
    const since = await call(app, 'GET', `/_sandbox/apps?after=${second.activity}`, undefined, operator)
    expect(since.body.apps.map((x: { app_key: string }) => x.app_key)).toEqual([b.appKey])
    const later = await call(
      app,
      'GET',
      `/_sandbox/apps?active_since=${Date.now() + 60_000}`,
      undefined,
      operator,
    )
    expect(later.body.apps).toEqual([])
  })

  it("is the operator's: an app's credentials, a wrong password, or no operator are refused", async () => {
    const { app } = await createTestApp()
    const a = tenant()
    expect((await call(app, 'GET', '/_sandbox/apps', undefined, a.auth)).body).toEqual({
      error: {
        code: 90006,
        message:
          "only the operator's credentials (SANDBOX_OPERATOR) may do this: an app's act on that app alone",
      },
    })
    const wrong = await call(app, 'GET', '/_sandbox/apps', undefined, {
      authorization: basic('operator', 'x'),
    })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe(90002)
    expect((await call(app, 'GET', '/_sandbox/apps?prefix=a-b', undefined, operator)).body.error).toEqual({
      code: 90020,
      message: '"prefix": must be 1 to 24 letters or digits',
    })
    const { app: none } = await createTestApp({ operator: null })
    expect((await call(none, 'GET', '/_sandbox/apps', undefined, operator)).status).toBe(401)
    const { app: own } = await createTestApp({ operator: { user: 'ops', password: 'pw' } })
    const listed = await call(own, 'GET', '/_sandbox/apps', undefined, { authorization: basic('ops', 'pw') })
    expect(listed.status).toBe(200)
  })

  it('wait= holds until an app is active, then answers it', async () => {
    const s = await listening()
    const { body } = await s.http('GET', '/_sandbox/apps', undefined, operator)
    const answer = s.http('GET', `/_sandbox/apps?after=${body.next_after}&wait=20000`, undefined, operator)
    await vi.waitFor(() => expect(s.app.hub.count(ALL_APPS).waiters).toBe(1), { timeout: 10_000 })
    const a = tenant()
    await s.http('POST', '/v1/messages', notice(MOBILE), a.auth)
    const woken = await answer
    expect(woken.status).toBe(200)
    expect(woken.body.apps.map((x: { app_key: string }) => x.app_key)).toEqual([a.appKey])
    expect(woken.body.apps[0].counts).toMatchObject({ texts: 1, requests: 1 })
  })
})

describe('X-Sandbox-App', () => {
  it('lets the operator act on any app of the control plane, journaled as the operator', async () => {
    const { app } = await createTestApp()
    const a = tenant()
    await call(app, 'POST', '/v1/messages', notice(MOBILE), a.auth)
    const messages = await call(app, 'GET', '/_sandbox/sms/messages', undefined, as(a.appKey))
    expect(messages.body.messages).toHaveLength(1)
    const moved = await call(app, 'POST', '/_sandbox/clock', { advance_ms: 1000 }, as(a.appKey))
    expect(moved.body.offset_ms).toBe(1000)
    expect((await call(app, 'GET', '/_sandbox/clock', undefined, a.auth)).body.offset_ms).toBe(1000)
    const journal = await call(app, 'GET', '/_sandbox/requests', undefined, a.auth)
    expect(
      journal.body.requests.map((r: { path: string; operator: boolean }) => [r.path, r.operator]),
    ).toEqual([
      ['/_sandbox/clock', true],
      ['/v1/messages', false],
    ])
  })

  it('must name an app that exists; an app may name only itself', async () => {
    const { app } = await createTestApp()
    const [a, b] = [tenant(), tenant()]
    await call(app, 'GET', '/_sandbox/app', undefined, b.auth) // provisioned
    expect((await call(app, 'GET', '/_sandbox/app', undefined, operator)).body.error.code).toBe(90007)
    const unknown = await call(app, 'GET', '/_sandbox/app', undefined, as('nosuchapp000000000000000'))
    expect(unknown).toMatchObject({
      status: 404,
      body: {
        error: { code: 90048, message: 'no app with appKey nosuchapp000000000000000 (X-Sandbox-App)' },
      },
    })
    const other = await call(app, 'GET', '/_sandbox/app', undefined, { ...a.auth, 'x-sandbox-app': b.appKey })
    expect(other.status).toBe(403)
    expect(other.body.error.code).toBe(90006)
    const own = await call(app, 'GET', '/_sandbox/app', undefined, { ...a.auth, 'x-sandbox-app': a.appKey })
    expect(own.body.app_key).toBe(a.appKey)
  })

  it('never opens /v1 or /v3: the vendor answers its own authentication failure', async () => {
    const { app } = await createTestApp()
    const a = tenant()
    await call(app, 'GET', '/_sandbox/app', undefined, a.auth)
    const sms = await call(app, 'GET', '/v1/accounts/app', undefined, as(a.appKey))
    expect(sms).toMatchObject({ status: 401, body: { error: { code: 50002, message: 'auth failed' } } })
    const push = await call(app, 'POST', '/v3/push', {}, as(a.appKey))
    expect(push.body.error.code).toBe(1004)
  })
})
