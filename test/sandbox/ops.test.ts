import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/store/engine/db.js'
import { databaseStatus } from '../../src/store/engine/health.js'
import { call, createTestApp } from '../helpers.js'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(d => rm(d, { recursive: true, force: true })))
})

describe('GET /_sandbox/health and /_sandbox/ready', () => {
  it('answer without credentials', async () => {
    const { app } = await createTestApp()
    const health = await app.inject({ method: 'GET', url: '/_sandbox/health' })
    expect(health.statusCode).toBe(200)
    expect(health.json()).toEqual({ status: 'ok' })
    const ready = await app.inject({ method: 'GET', url: '/_sandbox/ready' })
    expect(ready.statusCode).toBe(200)
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', scheduler: 'ok' } })
  })

  it('ignore credentials, even wrong ones', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({
      method: 'GET',
      url: '/_sandbox/ready',
      headers: { authorization: 'Basic Zm9vOmJhcg==' },
    })
    expect(res.statusCode).toBe(200)
  })

  it('ready is 503 while any check fails, and names the reason', async () => {
    const { app } = await createTestApp()
    await app.scheduler.stop()
    app.readiness.push({
      name: 'broken',
      check: () => {
        throw new Error('boom')
      },
    })
    const res = await app.inject({ method: 'GET', url: '/_sandbox/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({
      status: 'not ready',
      checks: { database: 'ok', scheduler: 'scheduler not running', broken: 'boom' },
    })
    // Liveness is not readiness: the process is up.
    expect((await app.inject({ method: 'GET', url: '/_sandbox/health' })).statusCode).toBe(200)
  })

  it('other methods get the control plane’s 405 (90005)', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/health', {})
    expect(res.status).toBe(405)
    expect(res.body).toEqual({ error: { code: 90005, message: 'this endpoint does not answer that method' } })
  })
})

describe('database readiness', () => {
  it('is not ready with a migration pending, nor once closed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-ready-'))
    dirs.push(dir)
    await writeFile(join(dir, '001_a.sql'), 'CREATE TABLE a (x INTEGER);')
    const db = openDatabase(':memory:', dir)
    expect(databaseStatus(db, { dir })()).toBe(true)
    await writeFile(join(dir, '002_b.sql'), 'CREATE TABLE b (x INTEGER);')
    expect(databaseStatus(db, { dir })()).toBe('schema at migration 1, 2 expected')
    db.close()
    expect(databaseStatus(db, { dir })()).toBe('database closed')
  })
})

describe('GET /_sandbox/ca.pem', () => {
  it('serves the CA certificate without credentials, the same one every time', async () => {
    const { app } = await createTestApp()
    const res = await app.inject({ method: 'GET', url: '/_sandbox/ca.pem' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/x-pem-file/)
    expect(new X509Certificate(res.body).ca).toBe(true)
    expect((await app.inject({ method: 'GET', url: '/_sandbox/ca.pem' })).body).toBe(res.body)
    expect(res.body).not.toMatch(/PRIVATE KEY/)
  })
})
