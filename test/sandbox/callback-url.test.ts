import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { CALLBACK_APP, callbackSeed, startReceiver } from '../scheduler/receiver.js'
import { advance } from '../sms/schedule-helpers.js'
import { listening } from './real-port.js'

// Setting a callback_url performs the vendor's URL check (jsms-api.md §6): a GET with `echostr`,
// which the receiver must echo. Over real HTTP, to a receiver on a random loopback port.

const tenant = () => ({ authorization: basic(newKey('u'), newKey('s')) })
const notification = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'U1', days: '1' } }

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>(resolve => server.close(() => resolve()))
  return port
}

describe('PATCH /_sandbox/app with a callback_url', () => {
  it('checks the URL with a GET and an echostr, then calls it back; null takes it away', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const auth = tenant()
    const res = await call(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, auth)
    expect(res.status).toBe(200)
    expect(res.body.callback_url).toBe(receiver.url)
    expect(receiver.checks).toEqual([expect.stringMatching(/^[0-9a-f]{8}$/)])
    // From now on the reports go to the callback, and the pull API refuses (50202).
    expect((await call(app, 'GET', '/v1/report', undefined, auth)).body.error.code).toBe(50202)
    const sent = await call(app, 'POST', '/v1/messages', notification, auth)
    await advance(app, 2_000, auth)
    expect(receiver.received.map(r => JSON.parse(r.form.data!).msgId)).toEqual([sent.body.msg_id])

    const removed = await call(app, 'PATCH', '/_sandbox/app', { callback_url: null }, auth)
    expect(removed.body.callback_url).toBeNull()
    expect(receiver.checks).toHaveLength(1)
    expect((await call(app, 'GET', '/v1/report', undefined, auth)).status).toBe(200)
  })

  it('lets a report be pulled when the URL was removed before the report fell due', async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp()
    const auth = tenant()
    await call(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, auth)
    const sent = await call(app, 'POST', '/v1/messages', notification, auth)
    await call(app, 'PATCH', '/_sandbox/app', { callback_url: null }, auth)
    await advance(app, 2_000, auth)
    expect(receiver.received).toEqual([])
    const pulled = await call(app, 'GET', '/v1/report', undefined, auth)
    expect(pulled.body).toEqual([expect.objectContaining({ msgId: sent.body.msg_id, status: 4001 })])
  })

  it.each([
    ['answers 404', 'fail', /answered HTTP 404, not 200 with the echostr$/],
    ['answers something else', 'wrong', /answered HTTP 200 without the echostr "[0-9a-f]{8}" as its body$/],
  ] as const)(
    'refuses a receiver that %s: 400 90030 saying why, nothing changed',
    async (_what, mode, why) => {
      const receiver = await startReceiver()
      receiver.answerChecks(mode)
      const { app } = await createTestApp()
      const auth = tenant()
      const res = await call(
        app,
        'PATCH',
        '/_sandbox/app',
        { callback_url: receiver.url, blacklisted: true },
        auth,
      )
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(90030)
      expect(res.body.error.message).toMatch(
        /^"callback_url": the vendor's URL check failed: GET http:\/\/127\.0\.0\.1:/,
      )
      expect(res.body.error.message).toMatch(why)
      // What the receiver answered is never shown (it answered "not here" or "success").
      expect(res.body.error.message).not.toMatch(/not here|success/)
      expect((await call(app, 'GET', '/_sandbox/app', undefined, auth)).body).toMatchObject({
        callback_url: null,
        blacklisted: false,
      })
    },
  )

  it('refuses a receiver that does not answer within CALLBACK_TIMEOUT_MS', async () => {
    const receiver = await startReceiver()
    receiver.answerChecks('hold')
    const { app } = await createTestApp({ callbackTimeoutMs: 200 })
    const res = await call(app, 'PATCH', '/_sandbox/app', { callback_url: receiver.url }, tenant())
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/got no answer within 200 ms \(CALLBACK_TIMEOUT_MS\)$/)
  })

  it('refuses a URL where nothing listens', async () => {
    const { app } = await createTestApp()
    const url = `http://127.0.0.1:${await closedPort()}/cb`
    const res = await call(app, 'PATCH', '/_sandbox/app', { callback_url: url }, tenant())
    expect(res.status).toBe(400)
    expect(res.body.error.message).toMatch(/failed: ECONNREFUSED/)
  })

  it('refuses a URL that is not http or https, without a request', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'PATCH', '/_sandbox/app', { callback_url: 'ftp://127.0.0.1/cb' }, tenant())
    expect(res.body.error).toEqual({
      code: 90030,
      message: `"callback_url": the vendor's URL check failed: it must be an http:// or https:// URL`,
    })
  })
})

describe('the URL check and the callbacks of a tenant', () => {
  it("never show what a URL answered: a tenant cannot read the sandbox's own pages through it", async () => {
    const s = await listening()
    const attacker = tenant()
    const victim = tenant()
    await s.http('POST', '/v1/messages', notification, victim)
    for (const path of ['/_sandbox/info', '/_sandbox/openapi.json', '/']) {
      const res = await s.http('PATCH', '/_sandbox/app', { callback_url: `${s.url}${path}` }, attacker)
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe(90030)
      // The whole message: the URL asked and whether the echo matched, nothing of the page.
      const [, echostr] = /echostr=([0-9a-f]{8})/.exec(res.body.error.message) ?? []
      expect(res.body.error.message).toBe(
        `"callback_url": the vendor's URL check failed: GET ${s.url}${path}?echostr=${echostr} answered HTTP 200 without the echostr "${echostr}" as its body`,
      )
    }
  })

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/jsms/callback`],
    ['another loopback address', (port: number) => `http://127.8.9.10:${port}/jsms/callback`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/jsms/callback`],
    ['IPv4-mapped IPv6 loopback', (port: number) => `http://[::ffff:127.0.0.1]:${port}/jsms/callback`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/jsms/callback`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.20.30.40:8080/internal'],
    ['the unspecified address', (port: number) => `http://0.0.0.0:${port}/jsms/callback`],
  ])('are refused to %s unless CALLBACK_ALLOW_PRIVATE, before any request', async (_what, urlOf) => {
    const receiver = await startReceiver()
    const port = Number(new URL(receiver.url).port)
    const { app } = await createTestApp({ callbackAllowPrivate: false })
    const res = await call(app, 'PATCH', '/_sandbox/app', { callback_url: urlOf(port) }, tenant())
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(90030)
    expect(res.body.error.message).toMatch(
      /is not a public address|resolves to .*: callbacks to loopback, private and link-local addresses need CALLBACK_ALLOW_PRIVATE=true/,
    )
    expect(receiver.checks).toEqual([])
  })

  it("apply the same rule to the courier's callbacks: a URL of the seed file or of a push", async () => {
    const receiver = await startReceiver()
    const { app } = await createTestApp({ seedFile: callbackSeed(receiver.url), callbackAllowPrivate: false })
    const auth = { authorization: basic(CALLBACK_APP.appKey, CALLBACK_APP.secret) }
    expect((await call(app, 'POST', '/v1/messages', notification, auth)).status).toBe(200)
    const pushed = await call(
      app,
      'POST',
      '/v3/push',
      {
        platform: 'all',
        audience: 'all',
        notification: { alert: 'hi' },
        callback: { url: receiver.url.replace('127.0.0.1', 'localhost'), type: 1 },
      },
      auth,
    )
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200)
    await advance(app, 60_000, auth)
    expect(receiver.received).toEqual([])
    const { callbacks } = (await call(app, 'GET', '/_sandbox/callbacks', undefined, auth)).body
    expect(callbacks.length).toBeGreaterThanOrEqual(2)
    for (const c of callbacks)
      expect(c.attempts[0]).toMatchObject({
        status_code: null,
        error: expect.stringMatching(/CALLBACK_ALLOW_PRIVATE=true$/),
      })
  })

  it('allows private targets by default only while the sandbox listens on loopback', () => {
    expect(loadConfig({}).callbackAllowPrivate).toBe(true)
    expect(loadConfig({ HOST: '127.0.0.1' }).callbackAllowPrivate).toBe(true)
    expect(loadConfig({ HOST: 'localhost' }).callbackAllowPrivate).toBe(true)
    expect(loadConfig({ HOST: '0.0.0.0' }).callbackAllowPrivate).toBe(false)
    expect(loadConfig({ HOST: '::' }).callbackAllowPrivate).toBe(false)
    expect(loadConfig({ HOST: '0.0.0.0', CALLBACK_ALLOW_PRIVATE: 'true' }).callbackAllowPrivate).toBe(true)
    expect(loadConfig({ CALLBACK_ALLOW_PRIVATE: 'false' }).callbackAllowPrivate).toBe(false)
  })
})
