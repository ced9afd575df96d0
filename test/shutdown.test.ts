import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { Agent } from 'node:https'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../src/app.js'
import { testConfig } from '../src/config.js'
import { prepareGracefulClose } from '../src/process/shutdown.js'
import { listenAppTls } from '../src/tls/listener.js'
import { httpsCall } from './tls/https-client.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(d => rm(d, { recursive: true, force: true })))
})

function httpGet(port: number, path: string): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    request({ port, path, host: '127.0.0.1' }, res => {
      let body = ''
      res.on('data', c => {
        body += c
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }))
    })
      .on('error', reject)
      .end()
  })
}

describe('graceful close', () => {
  it('lets requests in flight on HTTP and TLS finish before the database closes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-close-'))
    dirs.push(dir)
    const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db'), caDir: dir }))
    const graceful = prepareGracefulClose(app)
    let arrived = 0
    let allArrived: () => void = () => {}
    const bothArrived = new Promise<void>(resolve => {
      allArrived = resolve
    })
    let release: () => void = () => {}
    const released = new Promise<void>(resolve => {
      release = resolve
    })
    // A request that is still being answered when the close begins.
    app.get('/slow', async () => {
      if (++arrived === 2) allArrived()
      await released
      return { database: await app.readiness[0]?.check() }
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { listener: tls } = await listenAppTls(app, graceful, { port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as { port: number }).port

    const plain = httpGet(port, '/slow')
    // A keep-alive agent: without `Connection: close` its socket would hold the close open.
    const agent = new Agent({ keepAlive: true })
    const secure = httpsCall(`https://api.sms.jpush.cn:${tls.port}/slow`, { ca: app.tls.ca().certPem, agent })
    await bothArrived
    const closed = graceful.close()
    release()

    const [a, b] = await Promise.all([plain, secure])
    expect(a).toMatchObject({ status: 200, connection: 'close', body: '{"database":true}' })
    expect(b).toMatchObject({ status: 200, body: '{"database":true}' })
    expect(b.headers.connection).toBe('close')
    await closed
    expect(app.server.listening).toBe(false)
    expect(await app.readiness[0]?.check()).toBe('database closed')
    agent.destroy()
  })

  it('is idempotent', async () => {
    const app = await buildApp(testConfig())
    const graceful = prepareGracefulClose(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    await Promise.all([graceful.close(), graceful.close()])
    expect(app.server.listening).toBe(false)
  })

  it('ends a connection that never sent a request at once, not after the grace period', {
    timeout: 20_000,
  }, async () => {
    const app = await buildApp(testConfig())
    // A grace longer than the test: the close must not wait for it.
    const graceful = prepareGracefulClose(app, { graceMs: 120_000 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as { port: number }).port
    const pooled = connect(port, '127.0.0.1')
    await new Promise(resolve => pooled.once('connect', resolve))
    const ended = new Promise(resolve => pooled.once('close', resolve))
    pooled.on('error', () => {})
    await graceful.close()
    await ended
    expect(app.server.listening).toBe(false)
  })
})
