import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { call, createTestApp, defaultAuth } from '../helpers.js'
import { parseResponse, trickle } from '../http/raw-socket.js'

// A client that sends its body a byte at a time is answered 408 once REQUEST_TIMEOUT_MS has
// passed since its request began, in the envelope of the path it asked for, and the connection
// is closed. It used to be held open for as long as the client kept trickling.

const TIMEOUT_MS = 400

describe('a body that arrives too slowly', () => {
  it.each([
    ['/v1/messages', 50007, 'invalid body'],
    ['/v3/push', 1003, 'The request body is not valid JSON'],
    ['/v3/devices/1a0018970a8b0fd6c0e', 7002, 'Invalid JSON body'],
    ['/_sandbox/clock', 90010, 'the body must be a JSON object'],
  ])(
    'to %s: 408 in its vendor envelope, then the connection closes',
    { timeout: 20_000 },
    async (path, code, message) => {
      const { app } = await createTestApp({ requestTimeoutMs: TIMEOUT_MS })
      await app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = app.server.address() as { port: number }
      const { answer, ms } = await trickle(port, { url: path, auth: defaultAuth })
      const res = parseResponse(answer)
      expect(res.status).toBe(408)
      expect(JSON.parse(res.body)).toEqual({ error: { code, message } })
      expect(res.headers.connection).toBe('close')
      // Not before the limit; the upper bound is only "it ended" (a loaded machine may be late).
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
      // The time a request spends being answered does not count: a fault holds this answer back
      // for twice the limit, after the request has arrived.
      await call(app, 'POST', '/_sandbox/faults', { path: '/v1/accounts/app', delay_ms: 2 * TIMEOUT_MS })
      const url = `http://127.0.0.1:${port}/v1/accounts/app`
      expect((await fetch(url, { headers: { authorization: defaultAuth } })).status).toBe(200)
    },
  )

  it('is cut by default after 30 s, and not at all with REQUEST_TIMEOUT_MS=0', async () => {
    expect(loadConfig({ DB_PATH: ':memory:' }).requestTimeoutMs).toBe(30_000)
    expect(loadConfig({ DB_PATH: ':memory:', REQUEST_TIMEOUT_MS: '0' }).requestTimeoutMs).toBe(0)
    expect((await createTestApp()).app.server.requestTimeout).toBe(30_000)
    const off = (await createTestApp({ requestTimeoutMs: 0 })).app.server
    expect([off.requestTimeout, off.headersTimeout]).toEqual([0, 60_000])
  })
})
