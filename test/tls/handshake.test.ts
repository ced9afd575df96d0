import { mkdtemp, rm } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { type Config, testConfig } from '../../src/config.js'
import { prepareGracefulClose } from '../../src/process/shutdown.js'
import { listenAppTls, type TlsListener } from '../../src/tls/listener.js'
import { VENDOR_HOSTS } from '../../src/tls/server-cert.js'
import { defaultAuth } from '../helpers.js'
import { httpsCall } from './https-client.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

/** A sandbox on a temp database with HTTP and TLS listeners on loopback ports. */
async function startSandbox(
  dir: string,
  overrides: Partial<Config> = {},
  handshakeTimeoutMs?: number,
): Promise<{ app: SandboxApp; close: () => Promise<void>; tls: TlsListener }> {
  const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db'), caDir: dir, ...overrides }))
  const graceful = prepareGracefulClose(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { listener: tls } = await listenAppTls(app, graceful, {
    port: 0,
    host: '127.0.0.1',
    ...(handshakeTimeoutMs === undefined ? {} : { handshakeTimeoutMs }),
  })
  cleanup.push(() => graceful.close())
  return { app, close: () => graceful.close(), tls }
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-tls-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

describe('TLS listener', () => {
  it('serves the API under every vendor hostname to a client that trusts the CA', async () => {
    const { app, tls } = await startSandbox(await tempDir())
    const ca = (await app.inject({ method: 'GET', url: '/_sandbox/ca.pem' })).body
    for (const host of [...VENDOR_HOSTS, 'localhost']) {
      const res = await httpsCall(`https://${host}:${tls.port}/_sandbox/health`, { ca, agent: false })
      expect(res.status).toBe(200)
      expect(JSON.parse(res.body)).toEqual({ status: 'ok' })
    }
  })

  it('routes admin.jpush.cn/v1/app to the Admin API, and api.sms.jpush.cn/v1/… to JSMS, on one port', async () => {
    const { app, tls } = await startSandbox(await tempDir())
    const ca = app.tls.ca().certPem
    const dev = `Basic ${Buffer.from('sandboxdevkey00000000001:sandboxdevsecret00000001').toString('base64')}`
    // The Python client's create_app: its URL is hard-coded, https://admin.jpush.cn/v1/app.
    const made = await httpsCall(`https://admin.jpush.cn:${tls.port}/v1/app`, {
      ca,
      method: 'POST',
      auth: dev,
      body: { app_name: 'tls', android_package: 'cn.tls.app', group_name: null },
    })
    expect([made.status, JSON.parse(made.body).is_new_created]).toEqual([200, true])
    const jsms = await httpsCall(`https://api.sms.jpush.cn:${tls.port}/v1/app`, {
      ca,
      method: 'POST',
      auth: dev,
      body: {},
    })
    expect([jsms.status, JSON.parse(jsms.body)]).toEqual([
      404,
      { error: { code: 50016, message: 'api not found' } },
    ])
  })

  it('sends and validates a verification code over TLS as api.sms.jpush.cn', async () => {
    const { app, tls } = await startSandbox(await tempDir())
    const ca = app.tls.ca().certPem
    const base = `https://api.sms.jpush.cn:${tls.port}`
    const sent = await httpsCall(`${base}/v1/codes`, {
      ca,
      method: 'POST',
      auth: defaultAuth,
      body: { mobile: '13800138000', temp_id: 1 },
    })
    expect(sent.status).toBe(200)
    const { msg_id } = JSON.parse(sent.body) as { msg_id: string }
    const latest = await httpsCall(`${base}/_sandbox/sms/codes/latest?mobile=13800138000`, {
      ca,
      auth: defaultAuth,
    })
    const { code } = JSON.parse(latest.body) as { code: string }
    const valid = await httpsCall(`${base}/v1/codes/${msg_id}/valid`, {
      ca,
      method: 'POST',
      auth: defaultAuth,
      body: { code },
    })
    expect(valid.status).toBe(200)
    expect(JSON.parse(valid.body)).toEqual({ is_valid: true })
  })

  it('is refused by a client that does not trust the CA, or that asks for a name it does not hold', async () => {
    const { app, tls } = await startSandbox(await tempDir())
    await expect(
      httpsCall(`https://api.jpush.cn:${tls.port}/_sandbox/health`, { agent: false }),
    ).rejects.toMatchObject({
      code: expect.stringMatching(/UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED|UNABLE_TO_GET_ISSUER_CERT/),
    })
    await expect(
      httpsCall(`https://api.example.com:${tls.port}/_sandbox/health`, {
        ca: app.tls.ca().certPem,
        agent: false,
      }),
    ).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })
  })

  it('keeps the same CA across restarts on the same folder', async () => {
    const dir = await tempDir()
    const first = await startSandbox(dir)
    const before = (await first.app.inject({ method: 'GET', url: '/_sandbox/ca.pem' })).body
    await first.close()
    const second = await startSandbox(dir)
    const after = await httpsCall(`https://report.jpush.cn:${second.tls.port}/_sandbox/ca.pem`, {
      ca: before,
    })
    expect(after.body).toBe(before)
  })

  it('closes a handshake that does not finish within TLS_HANDSHAKE_TIMEOUT_MS', async () => {
    const { tls } = await startSandbox(await tempDir(), {}, 300)
    const stalled = await stall(tls.port)
    const started = Date.now()
    await stalled.closed
    // Node's own default waited 120 s.
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('holds at most MAX_TLS_HANDSHAKES_PER_CLIENT handshakes at once; other clients still get theirs', async () => {
    const { app, tls } = await startSandbox(await tempDir(), { maxTlsHandshakesPerClient: 2 })
    await stall(tls.port)
    await stall(tls.port)
    await vi.waitFor(() => expect(app.held.counts().tlsHandshakes).toBe(2))
    // The third from the same address is closed at once: no TLS yet, so no answer it could read.
    const third = await stall(tls.port)
    await third.closed
    expect(app.held.counts().refused['TLS handshakes per client']).toBe(1)
    // Another address completes its handshake and is answered.
    const ca = app.tls.ca().certPem
    const res = await httpsCall(`https://localhost:${tls.port}/_sandbox/health`, {
      ca,
      agent: false,
      localAddress: '127.0.0.2',
    })
    expect(res.status).toBe(200)
    expect(app.held.counts().tlsHandshakes).toBe(2)
  })

  it('with MAX_TLS_HANDSHAKES taken by a few addresses, a newcomer closes the busiest address’s oldest (issue 33)', async () => {
    const { app, tls } = await startSandbox(await tempDir(), {
      maxTlsHandshakesPerClient: 3,
      maxTlsHandshakes: 4,
    })
    const hog = [
      await stall(tls.port, '127.0.0.2'),
      await stall(tls.port, '127.0.0.2'),
      await stall(tls.port, '127.0.0.2'),
      await stall(tls.port, '127.0.0.3'),
    ]
    await vi.waitFor(() => expect(app.held.counts().tlsHandshakes).toBe(4))
    // A victim's HTTPS request goes through: the oldest stalled handshake of 127.0.0.2 is closed.
    const ca = app.tls.ca().certPem
    const res = await httpsCall(`https://localhost:${tls.port}/_sandbox/health`, {
      ca,
      agent: false,
      localAddress: '127.0.0.4',
    })
    expect(res.status).toBe(200)
    await hog[0]!.closed
    expect(hog.slice(1).every(h => !h.socket.destroyed)).toBe(true)
    expect(app.held.counts().refused['TLS handshakes taken back']).toBe(1)
  })
})

const stalls: Socket[] = []
afterEach(() => {
  for (const s of stalls.splice(0)) s.destroy()
})

/** A TCP connection to the TLS port that never starts its handshake. */
async function stall(port: number, from = '127.0.0.1') {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from })
  stalls.push(socket)
  socket.on('error', () => {})
  socket.resume()
  const closed = new Promise<void>(resolve => socket.once('close', () => resolve()))
  await new Promise(resolve => socket.once('connect', resolve))
  return { socket, closed }
}
