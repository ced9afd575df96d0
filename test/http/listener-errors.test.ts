import { Writable } from 'node:stream'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { testConfig } from '../../src/config.js'
import { createLogger } from '../../src/log/logger.js'
import { defaultAuth } from '../helpers.js'

// Once listening, nobody listened for the HTTP server's 'error' (a failed accept: ENFILE, EPERM…),
// so Node threw it and the process ended. It is logged; the server keeps accepting.

describe('the HTTP listener', () => {
  it('logs a failed accept and keeps serving', async () => {
    const lines: string[] = []
    const logger = createLogger(
      'info',
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk))
          done()
        },
      }),
    )
    const app = await buildApp(testConfig(), { logger })
    try {
      const url = await app.listen({ port: 0, host: '127.0.0.1' })
      const accept = Object.assign(new Error('accept ENFILE'), { code: 'ENFILE', syscall: 'accept' })
      expect(() => app.server.emit('error', accept)).not.toThrow()
      const logged = lines.map(l => JSON.parse(l)).find(l => l.err?.code === 'ENFILE')
      expect(logged).toMatchObject({ level: 50, msg: 'accepting a connection failed; still listening' })
      const res = await request(`${url}/v1/accounts/app`, { headers: { authorization: defaultAuth } })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
    } finally {
      await app.close()
    }
  })
})
