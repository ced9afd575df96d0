import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { pushBody, rate } from './helpers.js'

// The /v3 windows (push-service.md §8) count an app's authenticated calls only; calls that do not
// authenticate count against their client address. And the headers leave with the vendor's
// capitalisation (jpush-api.md §3), which only a real socket shows: inject lower-cases them.

const cid = (app: SandboxApp, authorization: string, remoteAddress: string) =>
  app.inject({ method: 'GET', url: '/v3/push/cid', headers: { authorization }, remoteAddress })

describe('wrong secrets aimed at an appKey', () => {
  it("use up the flooder's address, never the app's window", async () => {
    const { app, clock } = await createTestApp()
    const [victim, secret] = [newKey('victim'), newKey('s')]
    const auth = basic(victim, secret)
    expect((await cid(app, auth, '10.0.0.7')).statusCode).toBe(200) // provisioned
    const wrong = basic(victim, newKey('wrong'))
    for (let i = 1; i <= 600; i++) {
      const res = await cid(app, wrong, '10.6.6.6')
      expect(res.statusCode).toBe(401)
      if (i === 1 || i === 600) expect(rate(res.headers)).toEqual(['600', String(600 - i), '60'])
    }
    const over = await cid(app, wrong, '10.6.6.6')
    expect(over.statusCode).toBe(429)
    expect(over.json()).toEqual({ error: { code: 2002, message: 'Rate limit exceeded' } })
    expect(rate(over.headers)).toEqual(['600', '0', '60'])
    // The victim, from anywhere — the flooder's own address included — has its full window.
    clock.advance(10_000)
    const first = await cid(app, auth, '10.6.6.6')
    expect(first.statusCode).toBe(200)
    expect(rate(first.headers)).toEqual(['600', '598', '50'])
    for (let i = 0; i < 598; i++) expect((await cid(app, auth, '10.0.0.7')).statusCode).toBe(200)
    expect((await cid(app, auth, '10.0.0.7')).statusCode).toBe(429)
    // The flooder's address gets its failures back a minute after its window opened.
    clock.advance(50_000)
    expect((await cid(app, wrong, '10.6.6.6')).statusCode).toBe(401)
  })

  it('unknown paths and wrong methods count against the address too, not the appKey they carry', async () => {
    const { app } = await createTestApp()
    for (let i = 0; i < 600; i++) {
      await app.inject({ method: 'GET', url: '/v3/push', headers: { authorization: defaultAuth } })
    }
    const res = await app.inject({
      method: 'GET',
      url: '/v3/nothing',
      headers: { authorization: defaultAuth },
    })
    expect(res.statusCode).toBe(429)
    const push = await app.inject({
      method: 'POST',
      url: '/v3/push',
      headers: { authorization: defaultAuth },
      payload: pushBody(),
    })
    expect(push.statusCode).toBe(200)
    expect(rate(push.headers)).toEqual(['600', '599', '60'])
  })
})

/** The response's header lines as they came over the socket: names keep the case they were sent in. */
function rawHeaderLines(port: number, path: string, authorization: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', path, headers: { authorization } }, res => {
      const lines: string[] = [`${res.statusCode}`]
      for (let i = 0; i < res.rawHeaders.length; i += 2)
        lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`)
      res.resume()
      res.on('end', () => resolve(lines))
    })
    req.on('error', reject)
    req.end()
  })
}

describe('X-Rate-Limit headers on the wire', () => {
  it('are written X-Rate-Limit-Limit, X-Rate-Limit-Remaining, X-Rate-Limit-Reset', async () => {
    const { app } = await createTestApp()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const wrong = basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000')
    for (const [path, authorization, status, remaining] of [
      ['/v3/tags', defaultAuth, 200, 599],
      ['/v3/tags', wrong, 401, 599],
      ['/v3/nothing', defaultAuth, 404, 599], // the push group's window of the address
    ] as const) {
      const [code, ...lines] = await rawHeaderLines(port, path, authorization)
      expect(code).toBe(String(status))
      expect(lines.filter(l => /^x-rate-limit/i.test(l))).toEqual([
        'X-Rate-Limit-Limit: 600',
        `X-Rate-Limit-Remaining: ${remaining}`,
        'X-Rate-Limit-Reset: 60',
      ])
    }
  })
})
