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

  it('full, a newcomer from an address holding fewer closes the busiest address’s oldest idle connection (issue 33)', async () => {
    const s = await listening({ maxConnectionsPerClient: 3, maxConnections: 4 })
    // 127.0.0.2 holds three: one busy with a held request, two idle; 127.0.0.4 holds one.
    const busy = await client(s.port, '127.0.0.2')
    busy.socket.write(get('/_sandbox/sms/messages?mobile=13900139000&wait=20000'))
    await vi.waitFor(() => expect(s.app.held.counts().waiting).toBe(1))
    const idle = [await client(s.port, '127.0.0.2'), await client(s.port, '127.0.0.2')]
    await client(s.port, '127.0.0.4')
    await counted(s.app, 4)
    const victim = await client(s.port, '127.0.0.3')
    victim.socket.write(get('/_sandbox/app'))
    await vi.waitFor(() => expect(parseResponse(victim.received()).status).toBe(200))
    // The oldest idle one went; the busy one keeps its held request.
    await idle[0]!.closed
    expect([busy.socket.destroyed, idle[1]!.socket.destroyed]).toEqual([false, false])
    expect(s.app.held.counts().refused['connections taken back']).toBe(1)
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

  it('cut off a client that pipelines twice MAX_PIPELINED_REQUESTS without reading only past MAX_CLOSING_CONNECTIONS_PER_CLIENT', async () => {
    const s = await listening({ maxPipelined: 2, maxClosingConnectionsPerClient: 1 })
    // The first: its burst refused from the fifth request on, it closes once the four are read.
    const first = await client(s.port)
    first.socket.pause()
    first.socket.write(get('/_sandbox/openapi.json').repeat(6))
    await vi.waitFor(() => expect(s.app.held.counts().closing).toBe(1), { timeout: 10_000 })
    // The second from the same address, while the first still owes its answers: cut at once.
    const second = await client(s.port)
    second.socket.pause()
    second.socket.write(get('/_sandbox/openapi.json').repeat(6))
    await second.closed
    expect(s.app.held.counts()).toMatchObject({ connections: 1, closing: 1 })
    expect(s.log()).toContain(
      'a client at 127.0.0.1 pipelined more than 4 requests on one connection (MAX_PIPELINED_REQUESTS), and too many connections closing after a pipelined burst from 127.0.0.1: at most 1 at a time per client (MAX_CLOSING_CONNECTIONS_PER_CLIENT): disconnected',
    )
    first.socket.resume()
    await first.closed
    expect(first.received().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(4)
    expect(s.app.held.counts()).toMatchObject({ connections: 0, closing: 0 })
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

/** A JSMS send, as a client that pipelines writes it. */
const send = (i: number) => {
  const body = JSON.stringify({
    mobile: `1380013${String(8000 + i)}`,
    temp_id: 2,
    temp_para: { order: `P${i}`, days: '1' },
  })
  return `POST /v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

/** What a connection received, as answers: status, Connection header and body. */
const answersIn = (text: string) =>
  text
    .split(/(?=HTTP\/1\.1 )/)
    .filter(Boolean)
    .map(parseResponse)

const stored = async (app: SandboxApp) =>
  (
    await app.inject({
      method: 'GET',
      url: '/_sandbox/sms/messages?limit=100',
      headers: { authorization: defaultAuth },
    })
  ).json().messages as Array<{ msg_id: string }>

describe('a pipelined burst past MAX_PIPELINED_REQUESTS (issue 33)', () => {
  it('answers every write it stored, in order, refuses the next one and processes nothing after it', async () => {
    const s = await listening({ maxPipelined: 2 })
    const c = await client(s.port)
    // Ten sends in one write: the first four are answered 200, the fifth refused, the rest never run.
    c.socket.write(Array.from({ length: 10 }, (_, i) => send(i)).join(''))
    await c.closed
    const answers = answersIn(c.received())
    expect(answers.map(a => a.status)).toEqual([200, 200, 200, 200, 429])
    expect(answers.at(-1)!.headers.connection).toBe('close')
    expect(JSON.parse(answers.at(-1)!.body).error).toEqual({
      code: 50019,
      message:
        'more than 4 requests pipelined on one connection before their answers were read (MAX_PIPELINED_REQUESTS): this request and those sent after it on this connection were not processed; send them again',
    })
    // Exactly the answered writes are stored, in the order they were sent.
    const ids = answers.slice(0, 4).map(a => JSON.parse(a.body).msg_id as string)
    expect((await stored(s.app)).map(m => m.msg_id).reverse()).toEqual(ids)
    expect(s.log()).toContain(
      'a client at 127.0.0.1 sent more than 4 requests on one connection without reading the answers (MAX_PIPELINED_REQUESTS): the 4 are answered, the rest refused and the connection closed',
    )
    expect(s.app.held.counts()).toMatchObject({ connections: 0, closing: 0 })
  })

  it('answers all of a burst within the bound when the client half-closes after it', async () => {
    const s = await listening({ maxPipelined: 2 })
    const c = await client(s.port)
    c.socket.end(Array.from({ length: 4 }, (_, i) => send(i)).join(''))
    await c.closed
    expect(answersIn(c.received()).map(a => a.status)).toEqual([200, 200, 200, 200])
    expect(await stored(s.app)).toHaveLength(4)
  })

  it('past MAX_CLOSING_CONNECTIONS, the busiest address loses its oldest such connection, not the newcomer', async () => {
    const s = await listening({
      maxPipelined: 1,
      maxClosingConnections: 2,
      maxClosingConnectionsPerClient: 2,
    })
    // Two connections of 127.0.0.2 held open by a wait (for a text nobody sends), each past its
    // bound: both closing.
    const held = `GET /_sandbox/sms/messages?mobile=13900139000&wait=20000 HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\n\r\n`
    const attacker = [await client(s.port, '127.0.0.2'), await client(s.port, '127.0.0.2')]
    for (const a of attacker) {
      a.socket.write(held + get('/_sandbox/health').repeat(3))
      await vi.waitFor(() => expect(s.app.held.counts().closing).toBe(attacker.indexOf(a) + 1), {
        timeout: 10_000,
      })
    }
    // Another address's burst: the oldest of the busiest address's is cut to make room.
    const victim = await client(s.port, '127.0.0.3')
    victim.socket.write(Array.from({ length: 4 }, (_, i) => send(i)).join(''))
    await victim.closed
    expect(answersIn(victim.received()).map(a => a.status)).toEqual([200, 200, 429])
    await attacker[0]!.closed
    expect(attacker[0]!.received()).toBe('')
    expect(attacker[1]!.socket.destroyed).toBe(false)
    expect(s.log()).toContain(
      'a client at 127.0.0.2 pipelined more than 2 requests on one connection (MAX_PIPELINED_REQUESTS), and to make room for another client (MAX_CLOSING_CONNECTIONS): disconnected',
    )
  })
})
