import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestApp, defaultAuth, type TestApp } from '../helpers.js'

// Issue 29, point 13: an answer given before the body has arrived (2 MiB over the 1 MiB limit:
// JSMS 403 50007, JPush 400 1005) used to close the connection at once, so a client still writing
// got a reset and lost the answer (EPIPE / ECONNRESET, no 403). The rest of the body is now read
// and thrown away (http/socket/linger.ts), within a bound: a client that writes on and on past it
// is disconnected.

let open: TestApp['app'] | undefined
afterEach(async () => {
  await open?.close()
  open = undefined
})

async function listening(overrides = {}) {
  const { app } = await createTestApp(overrides)
  open = app
  await app.listen({ port: 0, host: '127.0.0.1' })
  return (app.server.address() as { port: number }).port
}

interface Outcome {
  answer: string
  error?: string
  sent: number
}

/**
 * A POST whose body (`total` bytes, or chunked and endless with `total` Infinity) is written in
 * 64 KiB chunks, each after the last one left: slower than the server answers.
 */
function slowPost(port: number, path: string, total: number): Promise<Outcome> {
  return new Promise(resolve => {
    const s = connect(port, '127.0.0.1')
    let answer = ''
    let error: string | undefined
    let sent = 0
    s.setEncoding('latin1')
    s.on('data', d => {
      answer += d
    })
    s.on('error', e => {
      error = (e as NodeJS.ErrnoException).code
    })
    s.on('close', () => resolve({ answer, sent, ...(error ? { error } : {}) }))
    const length = Number.isFinite(total) ? `Content-Length: ${total}` : 'Transfer-Encoding: chunked'
    s.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${defaultAuth}\r\nContent-Type: application/json\r\n${length}\r\nConnection: close\r\n\r\n`,
    )
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const framed = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from('\r\n'),
    ])
    const pump = () => {
      if (s.destroyed) return
      if (sent >= total) return void s.end()
      const n = Math.min(chunk.length, total - sent)
      sent += n
      s.write(Number.isFinite(total) ? chunk.subarray(0, n) : framed, err => {
        if (!err) setImmediate(pump)
      })
    }
    pump()
  })
}

const statusAndBody = (answer: string) => {
  const [head = '', body = ''] = answer.split('\r\n\r\n')
  return [head.split('\r\n')[0], body]
}

describe('an answer before the body has arrived', () => {
  it('2 MiB to /v1/messages, written slowly: the whole 403 50007, never a reset (20 times)', async () => {
    const port = await listening()
    for (let i = 0; i < 20; i++) {
      const out = await slowPost(port, '/v1/messages', 2 * 1024 * 1024 + 17)
      expect(out.error, `run ${i}`).toBeUndefined()
      expect(statusAndBody(out.answer)).toEqual([
        'HTTP/1.1 403 Forbidden',
        '{"error":{"code":50007,"message":"invalid body"}}',
      ])
    }
  })

  it('2 MiB to /v3/push, chunked with no length (as jpush-async sends): the whole 400 1005', async () => {
    const port = await listening()
    for (let i = 0; i < 5; i++) {
      const out = await slowPost(port, '/v3/push', 2 * 1024 * 1024)
      expect(out.error, `run ${i}`).toBeUndefined()
      const [status, body] = statusAndBody(out.answer)
      expect([status, JSON.parse(body!).error.code]).toEqual(['HTTP/1.1 400 Bad Request', 1005])
    }
  })

  it('is bounded: a client that writes on past LINGER_BYTES is disconnected', async () => {
    const port = await listening({ lingerBytes: 1024 * 1024 })
    const out = await slowPost(port, '/v1/messages', Number.POSITIVE_INFINITY)
    expect(statusAndBody(out.answer)[0]).toBe('HTTP/1.1 403 Forbidden')
    // The limit (1 MiB) read, then at most the bound more, and what was in flight.
    expect(out.sent).toBeLessThan(8 * 1024 * 1024)
  })
})
