import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { type Config, loadConfig, testConfig } from '../../src/config.js'
import { prepareGracefulClose } from '../../src/process/shutdown.js'
import { listenAppTls } from '../../src/tls/listener.js'
import { defaultAuth } from '../helpers.js'
import { httpsCall } from './https-client.js'

// Issue 29 point 12: push code 1020 (404, "HTTPS only", jpush-api.md §5.11 and §5.12, docs2019)
// answered by the plain port when HTTPS_ONLY is set; the TLS listener keeps serving /v3.

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

async function start(overrides: Partial<Config>) {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-https-only-'))
  cleanup.push(() => rm(dir, { recursive: true, force: true }))
  const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db'), caDir: dir, ...overrides }))
  const graceful = prepareGracefulClose(app)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { listener } = await listenAppTls(app, graceful, { port: 0, host: '127.0.0.1' })
  cleanup.push(() => graceful.close())
  const port = (app.server.address() as { port: number }).port
  return { app, port, tlsPort: listener.port, ca: app.tls.ca().certPem }
}

const push = { platform: 'all', audience: 'all', notification: { alert: 'hi' } }
const plain = (port: number, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${port}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: defaultAuth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('HTTPS_ONLY', () => {
  it('is off by default, and read from the environment', () => {
    expect(loadConfig({}).httpsOnly).toBe(false)
    expect(loadConfig({ HTTPS_ONLY: 'true' }).httpsOnly).toBe(true)
  })

  it('makes the plain port answer 404 1020 on /v3, before auth, while TLS serves it', async () => {
    const { port, tlsPort, ca } = await start({ httpsOnly: true })
    for (const path of ['/v3/push', '/v3/devices/x', '/v3/received?msg_ids=1']) {
      const res = await plain(port, path, path === '/v3/push' ? push : undefined)
      expect([res.status, await res.json()]).toEqual([
        404,
        { error: { code: 1020, message: 'Only support HTTPS request' } },
      ])
    }
    // No credentials at all: still 1020, the front refuses plain HTTP first.
    const bare = await fetch(`http://127.0.0.1:${port}/v3/push`, { method: 'POST', body: '{}' })
    expect([bare.status, (await bare.json()).error.code]).toEqual([404, 1020])
    // JSMS documents no such code: /v1 and the control plane stay on the plain port.
    const sms = await plain(port, '/v1/accounts/dev')
    expect(sms.status).not.toBe(404)
    expect((await fetch(`http://127.0.0.1:${port}/_sandbox/health`)).status).toBe(200)
    const tls = await httpsCall(`https://api.jpush.cn:${tlsPort}/v3/push`, {
      ca,
      method: 'POST',
      auth: defaultAuth,
      body: push,
    })
    expect(tls.status).toBe(200)
    expect(Object.keys(JSON.parse(tls.body)).sort()).toEqual(['msg_id', 'sendno'])
  })

  it('leaves the plain port serving /v3 when unset', async () => {
    const { port } = await start({})
    const res = await plain(port, '/v3/push', push)
    expect(res.status).toBe(200)
  })
})
