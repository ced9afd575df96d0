import * as crypto from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { safeEqual } from '../../src/tenancy.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { http, newTenant } from './http.js'
import { startServer, tempDatabase } from './server-process.js'

// Credentials: compared in constant time on every path, never written to the log; the server
// listens on loopback unless told otherwise.

vi.mock('node:crypto', async importOriginal => {
  const original = await importOriginal<typeof import('node:crypto')>()
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) }
})
const compared = vi.mocked(crypto.timingSafeEqual)

describe('constant-time comparison', () => {
  it('safeEqual compares digests, so different lengths neither throw nor short-cut', () => {
    expect(safeEqual('5e987ac6d2e04d95a9d8f0d1', '5e987ac6d2e04d95a9d8f0d1')).toBe(true)
    expect(safeEqual('5e987ac6d2e04d95a9d8f0d1', '5e987ac6d2e04d95a9d8f0d2')).toBe(false)
    expect(safeEqual('short', 'a much longer secret than that')).toBe(false)
    expect(safeEqual('', '')).toBe(true)
  })

  it.each([
    [
      'a wrong masterSecret',
      '/v1/accounts/app',
      basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000'),
    ],
    ['an unknown appKey', '/v1/accounts/app', basic(newKey('nobody'), newKey('s'))],
    ['an unknown appKey on /_sandbox', '/_sandbox/sms/messages', basic(newKey('nobody'), newKey('s'))],
    ['a wrong devSecret', '/v1/accounts/dev', basic('sandboxdevkey00000000001', 'wrongdevsecret0000000000')],
    ['an unknown devKey', '/v1/accounts/dev', basic(newKey('nodev'), newKey('s'))],
  ])(
    '%s goes through timingSafeEqual and fails with 401 (50002, or 90002 on /_sandbox)',
    async (_name, url, authorization) => {
      const { app } = await createTestApp({ autoProvision: false })
      compared.mockClear()
      const res = await call(app, 'GET', url, undefined, { authorization })
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe(url.startsWith('/_sandbox') ? 90002 : 50002)
      expect(compared).toHaveBeenCalled()
    },
  )
})

describe('logs', () => {
  it('never contain a secret or the Authorization header, even at trace level', {
    timeout: 30_000,
  }, async () => {
    const tenant = newTenant('logs')
    const wrong = basic(tenant.key, 'wrongsecret0000000000000')
    const server = await startServer({ DB_PATH: tempDatabase(), LOG_LEVEL: 'trace' })
    const send = { mobile: '13800138000', temp_id: 2, temp_para: { order: 'L', days: '1' } }
    await http(`${server.url}/v1/messages`, 'POST', tenant.auth, send)
    await http(`${server.url}/v1/messages`, 'POST', wrong, send)
    await http(`${server.url}/v1/messages`, 'POST', tenant.auth, { mobile: 'x' })
    await http(`${server.url}/v1/nowhere`, 'GET', tenant.auth)
    await http(`${server.url}/v1/messages`, 'DELETE', tenant.auth)
    await http(`${server.url}/_sandbox/sms/messages`, 'GET', tenant.auth)
    await server.kill('SIGTERM')
    const log = server.output()
    expect(log).toContain('request completed')
    for (const secret of [
      tenant.secret,
      tenant.auth,
      tenant.auth.slice(6),
      wrong.slice(6),
      'wrongsecret0000000000000',
    ]) {
      expect(log).not.toContain(secret)
    }
  })
})

describe('binding', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', async () => {
    expect(loadConfig({}).host).toBe('127.0.0.1')
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0')
    const server = await startServer({ DB_PATH: tempDatabase(), HOST: '' })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    await server.kill('SIGTERM')
  })
})
