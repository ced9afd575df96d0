import { connect, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { basic, newKey } from '../helpers.js'
import { SCALE } from './http.js'
import { ATTACKER, agentFrom, getStatus, rssMiB, VICTIM, victim } from './load.js'
import { startServer, tempDatabase } from './server-process.js'

// Issue 19, class 3: answers nobody reads. 600 connections pipelining requests for the public
// OpenAPI document (~600 KB, no credentials needed) and never reading took the process from
// 105 MB to 1.9 GB, 835 MB of which stayed after they left. Here, on the real process: the
// connections stop being read once they owe their share of answers (MAX_PIPELINED_REQUESTS, the
// unread bytes), memory stays bounded, the victim and health are served meanwhile, and what was
// held is let go when the clients go: a second wave ends where the first did.

const CONNECTIONS = 60 * SCALE
/** Within 2 × MAX_PIPELINED_REQUESTS (16): held, not cut off. */
const PIPELINED = 30

const sockets: Socket[] = []
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy()
})

/** A wave of connections that pipeline and never read; resolves once each has written its requests. */
async function wave(port: number): Promise<Socket[]> {
  const request = 'GET /_sandbox/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(PIPELINED)
  const made: Socket[] = []
  await Promise.all(
    Array.from(
      { length: CONNECTIONS },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect({ port, host: '127.0.0.1', localAddress: ATTACKER })
          sockets.push(socket)
          made.push(socket)
          socket.on('error', () => {})
          socket.once('connect', () => {
            socket.pause() // never reads
            socket.write(request, err => (err ? reject(err) : resolve()))
          })
        }),
    ),
  )
  return made
}

describe('answers nobody reads', () => {
  it(`are bounded in memory and let go with their clients (${CONNECTIONS} connections × ${PIPELINED} pipelined, twice)`, {
    timeout: 120_000 * SCALE,
  }, async () => {
    const server = await startServer({ DB_PATH: tempDatabase() })
    const { port } = new URL(server.url)
    const pid = server.child.pid!
    const auth = basic(newKey('v'), newKey('s'))
    const agent = agentFrom(VICTIM, 2)
    const app = () => getStatus(agent, `${server.url}/_sandbox/app`, auth)
    // The document is made once, on first request: that is not what is measured.
    expect(await getStatus(agent, `${server.url}/_sandbox/openapi.json`)).toBe(200)
    const baseline = victim(app)
    while (baseline.durations.length < 200) await new Promise(resolve => setImmediate(resolve))
    const before = await baseline.stop()
    const rssBefore = rssMiB(pid)

    const peaks: number[] = []
    const after: number[] = []
    const during = victim(app)
    for (const round of [1, 2]) {
      const made = await wave(Number(port))
      // Let the server do what it will with them: until its memory stops growing.
      let last = 0
      for (let same = 0; same < 5; ) {
        await new Promise(resolve => setTimeout(resolve, 200))
        const now = rssMiB(pid)
        same = Math.abs(now - last) < 2 ? same + 1 : 0
        last = now
      }
      peaks.push(last)
      expect(
        await getStatus(agentFrom('127.0.0.1', 1), `${server.url}/_sandbox/health`),
        `round ${round}`,
      ).toBe(200)
      for (const s of made) s.destroy()
      after.push(rssMiB(pid))
    }
    const under = await during.stop()
    const summary = JSON.stringify({ rssBefore, peaks, after, before, under })
    console.log(summary)
    expect(during.statuses.every(s => s === 200)).toBe(true)
    // Bounded: issue 19 measured 1.9 GB for 600 such connections; here half a MiB each at most.
    expect(Math.max(...peaks) - rssBefore, summary).toBeLessThan(30 + CONNECTIONS / 2)
    // Let go: the second wave ends about where the first did (no growth per wave).
    expect(peaks[1]! - peaks[0]!, summary).toBeLessThan(50)
    // The acceptance bound at the default size; larger sizes are measured (docs/reliability.md).
    if (SCALE === 1) expect(under.p99, summary).toBeLessThan(before.p99 + 100)
    await agent.close()
  })
})
