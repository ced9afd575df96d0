import { connect, type Socket } from 'node:net'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { type Config, testConfig } from '../../src/config.js'
import { createLogger } from '../../src/log/logger.js'
import { defaultAuth } from '../helpers.js'
import { parseResponse, rawExchange } from './raw-socket.js'

// Bounds on connections and back-pressure on answers nobody reads (src/http/socket/connections.ts), over
// real sockets. Loopback has more than one address: 127.0.0.2 is another client than 127.0.0.1.

const open: SandboxApp[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await Promise.all(open.splice(0).map(a => a.close()))
})

async function listening(overrides: Partial<Config>) {
  const lines: string[] = []
  const log = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const app = await buildApp(testConfig(overrides), { logger: createLogger('info', log) })
  await app.listen({ port: 0, host: '127.0.0.1' })
  open.push(app)
  const port = (app.server.address() as { port: number }).port
  return { app, port, log: () => lines.join('') }
}

/** A connection from `from`, open once connected; what it receives is collected. */
async function client(port: number, from = '127.0.0.1') {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from })
  sockets.push(socket)
  let text = ''
  socket.setEncoding('latin1')
  socket.on('data', chunk => {
    text += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<void>(resolve => socket.once('close', () => resolve()))
  await new Promise(resolve => socket.once('connect', resolve))
  return { socket, received: () => text, closed }
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\n\r\n`

/** Resolves once `connections` are counted by the sandbox. */
const counted = (app: SandboxApp, connections: number) =>
  vi.waitFor(() => expect(app.held.counts().connections).toBe(connections), { timeout: 10_000 })

describe('connections', () => {
  it("beyond a client's share: its first request answered 429 in the envelope of its path, then closed", async () => {
    const s = await listening({ maxConnectionsPerClient: 2, maxConnections: 10 })
    await client(s.port)
    await client(s.port)
    await counted(s.app, 2)
    for (const [path, code] of [
      ['/v1/codes/1/valid', 50019],
      ['/v3/push/cid', 2002],
      ['/_sandbox/sms/messages', 90060],
    ] as const) {
      const answer = parseResponse(await rawExchange(s.port, get(path)))
      expect(answer.status, path).toBe(429)
      expect(answer.headers.connection).toBe('close')
      expect(JSON.parse(answer.body).error, path).toEqual({
        code,
        message:
          'too many connections from 127.0.0.1: at most 2 at a time per client (MAX_CONNECTIONS_PER_CLIENT)',
      })
    }
    // Health and readiness are answered even so; another client is not refused.
    expect(parseResponse(await rawExchange(s.port, get('/_sandbox/health'))).status).toBe(200)
    expect(parseResponse(await rawExchange(s.port, get('/_sandbox/ready'))).status).toBe(200)
    const other = await client(s.port, '127.0.0.2')
    other.socket.write(get('/_sandbox/app'))
    await new Promise(resolve => other.socket.once('data', resolve))
    expect(parseResponse(other.received()).status).toBe(200)
    expect(s.log()).toContain('"bound":"connections per client","client":"127.0.0.1"')
    // One line a minute per bound, however many refusals.
    expect(s.log().match(/"connections per client"/g)).toHaveLength(1)
  })

  it('beyond the sandbox’s: 503 for anybody', async () => {
    const s = await listening({ maxConnectionsPerClient: 5, maxConnections: 1 })
    await client(s.port)
    await counted(s.app, 1)
    const answer = parseResponse(await rawExchange(s.port, get('/v3/push/cid')))
    expect(answer.status).toBe(503)
    expect(JSON.parse(answer.body).error).toEqual({
      code: 1000,
      message: 'too many connections in the sandbox: at most 1 at a time (MAX_CONNECTIONS)',
    })
  })

  it('CONNECT is answered 405 in the envelope of what it names, not reset', async () => {
    const s = await listening({})
    const tunnel = parseResponse(
      await rawExchange(s.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n'),
    )
    expect(tunnel.status).toBe(405)
    expect(JSON.parse(tunnel.body).error.code).toBe(50018)
    const push = parseResponse(await rawExchange(s.port, 'CONNECT /v3/push HTTP/1.1\r\nHost: x\r\n\r\n'))
    expect(push.status).toBe(405)
    expect(JSON.parse(push.body).error.code).toBe(1001)
  })
})

describe('answers nobody reads', () => {
  it('hold the requests behind them and stop reading; all answered once the client reads', async () => {
    const s = await listening({ maxPipelined: 2 })
    const c = await client(s.port)
    c.socket.pause()
    // Four pipelined requests: two run, two wait their turn; nothing is lost.
    c.socket.write(get('/_sandbox/openapi.json').repeat(4))
    c.socket.resume()
    await c.socket.end()
    await c.closed
    expect(c.received().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(4)
  })

  it('cut off a client that pipelines twice MAX_PIPELINED_REQUESTS without reading, and say so', async () => {
    const s = await listening({ maxPipelined: 2 })
    const c = await client(s.port)
    c.socket.pause()
    c.socket.write(get('/_sandbox/openapi.json').repeat(6))
    await vi.waitFor(() => expect(s.app.held.counts().connections).toBe(0), { timeout: 10_000 })
    expect(s.log()).toContain(
      'a client at 127.0.0.1 sent more than 4 requests on one connection without reading the answers (MAX_PIPELINED_REQUESTS): disconnected',
    )
  })

  it('cut off a client that leaves its answers unread for UNREAD_TIMEOUT_MS, and let go of them', async () => {
    const s = await listening({ unreadTimeoutMs: 1_000, maxUnreadBytesPerConnection: 64 * 1024 })
    const c = await client(s.port)
    c.socket.pause()
    // More than the kernel's socket buffers take: the rest waits in the process.
    c.socket.write(get('/_sandbox/openapi.json').repeat(30))
    await vi.waitFor(() => expect(s.app.held.counts().unreadBytes).toBeGreaterThan(64 * 1024))
    // Nothing read for the timeout: the connection is dropped, with whatever it held.
    await vi.waitFor(() => expect(s.app.held.counts().connections).toBe(0), { timeout: 10_000 })
    expect(s.app.held.counts().unreadBytes).toBe(0)
    expect(s.log()).toContain('left')
    expect(s.log()).toContain('bytes of answers unread for 1000 ms (UNREAD_TIMEOUT_MS): disconnected')
    c.socket.resume()
    await c.closed
  })
})
