import { describe, expect, it, vi } from 'vitest'
import { ALL_APPS } from '../../src/store/events/requests.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { MOBILE } from '../sms/support.js'
import { listening } from './real-port.js'

// The operator (SANDBOX_OPERATOR, operator:operator by default on loopback): lists every app, most
// recently active first, and acts on any one of them with X-Sandbox-App; never on /v1 or /v3. Its
// failed sign-ins (and every other on the control plane) are slowed per client address.

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
    // The fixtures' devices, and the one registered: the registry's count (kept in memory, not
    // counted per listed app), as SQLite counts them.
    const registered = app.store.db
      .prepare('SELECT count(*) AS n FROM push_devices WHERE app_key = ?')
      .get(b.appKey) as { n: number }
    expect(registered.n).toBeGreaterThan(1)
    expect(first.counts.devices).toBe(registered.n)
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

  it('never opens /v1 or /v3: they answer its credentials as they answer a wrong password', async () => {
    const { app } = await createTestApp()
    const a = tenant()
    await call(app, 'GET', '/_sandbox/app', undefined, a.auth)
    const wrong = { authorization: basic('operator', 'not-the-password'), 'x-sandbox-app': a.appKey }
    const sms = await call(app, 'GET', '/v1/accounts/app', undefined, as(a.appKey))
    expect(sms).toMatchObject({ status: 401, body: { error: { code: 50002, message: 'auth failed' } } })
    // The vendor surfaces cannot tell the right password from a wrong one: no guessing there.
    for (const [method, path, body] of [
      ['GET', '/v1/accounts/app', undefined],
      ['POST', '/v3/push', {}],
      ['GET', '/v3/devices/1a0018970a8b0fd6c0e', undefined],
      ['GET', '/v3/received?msg_ids=1', undefined],
    ] as const) {
      const right = await call(app, method, path, body, as(a.appKey))
      const guessed = await call(app, method, path, body, wrong)
      expect([path, right.status, right.raw]).toEqual([path, guessed.status, guessed.raw])
      expect(right.status).toBeGreaterThanOrEqual(400)
    }
  })
})

/** A request from a client address of the test's choosing (one attacker, one victim). */
async function from(
  app: Awaited<ReturnType<typeof createTestApp>>['app'],
  remoteAddress: string,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
) {
  const res = await app.inject({ method, url, headers, remoteAddress })
  return { status: res.statusCode, body: res.json(), headers: res.headers }
}

describe('failed sign-ins on the control plane', () => {
  it("are slowed per client address: an attacker's guesses stop at the limit, the victim signs in", async () => {
    const { app, clock } = await createTestApp()
    const attacker = '10.0.0.66'
    const victim = '10.0.0.7'
    // An app the attacker's address signed in with before: its own requests keep working.
    const own = tenant()
    expect((await from(app, attacker, 'GET', '/_sandbox/app', own.auth)).status).toBe(200)
    const guess = (n: number) => ({ authorization: basic('operator', `guess${n}`) })
    const answers: number[] = []
    for (let i = 0; i < 40; i++)
      answers.push((await from(app, attacker, 'GET', '/_sandbox/apps', guess(i))).status)
    // SIGN_IN_FAILURES_PER_MINUTE (30) guesses are checked, then none for the rest of the minute.
    expect(answers).toEqual([...Array(30).fill(401), ...Array(10).fill(429)])
    const refused = await from(app, attacker, 'GET', '/_sandbox/apps', guess(99))
    expect(refused.body).toEqual({
      error: {
        code: 90008,
        message:
          'too many failed sign-ins from this address: its credentials are checked again in 60 s (SIGN_IN_FAILURES_PER_MINUTE)',
      },
    })
    expect(refused.headers['retry-after']).toBe('60')
    // Even the right password waits: a 200 among the 429s would give it away. So does any user
    // that is not an appKey, so that a 429 does not tell the operator's user name either.
    expect((await from(app, attacker, 'GET', '/_sandbox/apps', operator)).status).toBe(429)
    const otherUser = { authorization: basic('admin', 'admin') }
    expect((await from(app, attacker, 'GET', '/_sandbox/apps', otherUser)).status).toBe(429)
    // Apps still sign in from that address (a masterSecret can be tried on /v1 as fast anyway):
    // one that signed in before, a new one, and a wrong secret is still only a wrong secret.
    expect((await from(app, attacker, 'GET', '/_sandbox/app', own.auth)).status).toBe(200)
    expect((await from(app, attacker, 'GET', '/_sandbox/app', tenant().auth)).status).toBe(200)
    const wrongSecret = { authorization: basic(own.appKey, newKey('w')) }
    expect((await from(app, attacker, 'GET', '/_sandbox/app', wrongSecret)).body.error.code).toBe(90002)
    // The victim's address is not the attacker's.
    expect((await from(app, victim, 'GET', '/_sandbox/apps', operator)).status).toBe(200)
    // The vendor surfaces answer the attacker as the vendor does, whatever it tried before.
    expect((await from(app, attacker, 'GET', '/v1/accounts/app', wrongSecret)).body.error.code).toBe(50002)
    expect((await from(app, attacker, 'GET', '/v1/accounts/app', own.auth)).status).toBe(200)
    clock.advance(29_000)
    expect((await from(app, attacker, 'GET', '/_sandbox/apps', operator)).headers['retry-after']).toBe('31')
    clock.advance(31_000)
    expect((await from(app, attacker, 'GET', '/_sandbox/apps', operator)).status).toBe(200)
  })

  it('count only refused credentials, and say it once in the log', async () => {
    const { app } = await createTestApp({ signInFailuresPerMinute: 3 })
    const logged = vi.spyOn(app.log, 'warn')
    for (let i = 0; i < 10; i++) {
      // No credentials at all, a right login, an unknown path: none of them is a failed sign-in.
      expect((await from(app, '10.0.0.5', 'GET', '/_sandbox/apps', {})).status).toBe(401)
      expect((await from(app, '10.0.0.5', 'GET', '/_sandbox/apps', operator)).status).toBe(200)
    }
    const wrong = { authorization: basic('operator', 'nope') }
    const answers = []
    for (let i = 0; i < 5; i++)
      answers.push((await from(app, '10.0.0.5', 'GET', '/_sandbox/apps', wrong)).status)
    expect(answers).toEqual([401, 401, 401, 429, 429])
    const lines = logged.mock.calls.filter(([, msg]) => String(msg).includes('SIGN_IN_FAILURES_PER_MINUTE'))
    expect(lines).toHaveLength(1)
    expect(lines[0]![0]).toMatchObject({ client: '10.0.0.5', failures: 3 })
  })
})
