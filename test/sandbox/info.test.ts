import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SETTINGS } from '../../src/config.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'

// GET /_sandbox/info: what runs, like Mailpit's /api/v1/info. Public like /health.

const { name, version } = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  name: string
  version: string
}
const dir = mkdtempSync(join(tmpdir(), 'info-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('GET /_sandbox/info', () => {
  it('says what runs, since when, with which settings, and how much it holds; without credentials', async () => {
    const before = Date.now()
    const { app } = await createTestApp({ reportDelayMs: 1234, autoProvisionMaxApps: 7 })
    await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: basic(newKey('inf'), newKey()) })
    const res = await app.inject({ method: 'GET', url: '/_sandbox/info' })
    expect(res.statusCode).toBe(200)
    const info = res.json()
    expect(info).toEqual({
      name,
      version,
      node: process.versions.node,
      started_at: expect.any(String),
      uptime_s: expect.any(Number),
      settings: expect.any(Object),
      database: { in_memory: true, bytes: expect.any(Number), wal_bytes: 0 },
      apps: 2,
      operator: true,
    })
    expect(Date.parse(info.started_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(info.started_at)).toBeLessThanOrEqual(Date.now())
    expect(info.uptime_s).toBeGreaterThanOrEqual(0)
    expect(info.database.bytes).toBeGreaterThan(0)
    // Exactly the settings whose row says they are public, by environment variable.
    const shown = Object.values(SETTINGS).filter(s => 'public' in s && s.public)
    expect(Object.keys(info.settings).sort()).toEqual(shown.map(s => s.env).sort())
    expect(info.settings).toMatchObject({
      AUTO_PROVISION: true,
      AUTO_PROVISION_MAX_APPS: 7,
      REPORT_DELAY_MS: 1234,
      TLS_PORT: null,
    })
    // Never where the files are, nor a credential.
    expect(JSON.stringify(info)).not.toMatch(/DB_PATH|CA_DIR|SANDBOX_CONFIG|secret/i)
  })

  it('reports the size of a database file and of its WAL', async () => {
    const file = join(dir, 'sandbox.db')
    const { app } = await createTestApp({ database: file })
    const info = (await app.inject({ method: 'GET', url: '/_sandbox/info' })).json()
    expect(info.database).toEqual({
      in_memory: false,
      bytes: statSync(file).size,
      wal_bytes: statSync(`${file}-wal`).size,
    })
    expect(info.database.wal_bytes).toBeGreaterThan(0)
  })
})
