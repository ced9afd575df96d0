import {
  closeSync,
  copyFileSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { createLogger } from '../../src/log/logger.js'
import { openDatabase } from '../../src/store/engine/db.js'
import { createHealth } from '../../src/store/engine/health.js'
import { createSeqs } from '../../src/store/engine/item-seqs.js'
import { createWriter, type WalSync } from '../../src/store/engine/writer.js'
import { call } from '../helpers.js'
import { ANDROID_1, pushBody } from '../push/helpers.js'

// The operator's mistakes under a running sandbox, on a real database file: writes that could not
// survive are refused (500 in each surface's server-error envelope) and logged, and readiness
// says why, instead of acknowledging writes into a file a restart would not find.

const opened: SandboxApp[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map(a => a.close()))
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function sandboxOnFile() {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-health-'))
  dirs.push(dir)
  const file = join(dir, 'sandbox.db')
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l))
      done()
    },
  })
  const clock = new ManualClock()
  const app = await buildApp(testConfig({ database: file, caDir: dir }), {
    clock,
    logger: createLogger('info', stream),
  })
  opened.push(app)
  // A push waiting for an offline device: once its time_to_live has run out, a report read has to
  // record the expiry (the catch-up before its handler) before it can answer.
  const device = await call(app, 'POST', '/_sandbox/push/devices', { platform: 'android', online: false })
  const waiting = await call(
    app,
    'POST',
    '/v3/push',
    pushBody({ audience: { registration_id: [device.body.registration_id] }, options: { time_to_live: 60 } }),
  )
  return { app, file, lines, clock, waiting: waiting.body.msg_id as string }
}

let mobile = 13800000000
// A new mobile each time: the per-mobile frequency limit never trips.
const send = (app: SandboxApp) =>
  call(app, 'POST', '/v1/messages', {
    mobile: String(mobile++),
    temp_id: 2,
    temp_para: { order: 'H', days: '1' },
  })

async function ready(app: SandboxApp) {
  const res = await app.inject({ method: 'GET', url: '/_sandbox/ready' })
  return { status: res.statusCode, body: res.json() as { status: string; checks: Record<string, string> } }
}

/** Every surface refuses its writes in its own server-error envelope. */
async function expectWritesRefused({ app, clock, waiting }: Awaited<ReturnType<typeof sandboxOnFile>>) {
  const writes: Array<[string, string, unknown, number]> = [
    [
      'POST',
      '/v1/messages',
      { mobile: '13800138001', temp_id: 2, temp_para: { order: 'R', days: '1' } },
      50019,
    ],
    ['POST', '/v3/push', pushBody(), 1000],
    ['POST', `/v3/devices/${ANDROID_1}`, { tags: { add: ['refused'] } }, 7000],
    ['POST', '/_sandbox/push/devices', { platform: 'android' }, 90099],
    // A read writes nothing of its own; this one first has due work to record (the push expired).
    ['GET', `/v3/received?msg_ids=${waiting}`, undefined, 10],
  ]
  for (const [method, url, body, code] of writes) {
    if (url.startsWith('/v3/received')) clock.advance(61_000)
    const res = await call(app, method as 'POST', url, body)
    expect(res.status, `${method} ${url}: ${res.raw}`).toBe(500)
    expect(res.body.error.code, `${method} ${url}: ${res.raw}`).toBe(code)
  }
}

describe('a database that can no longer keep writes', () => {
  it('deleted under the running sandbox: writes refused, logged, not ready', async () => {
    const sandbox = await sandboxOnFile()
    const { app, file, lines } = sandbox
    expect((await send(app)).status).toBe(200)
    expect((await ready(app)).status).toBe(200)
    rmSync(file)
    await expectWritesRefused(sandbox)
    const r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.checks.database).toMatch(/^the file at .*sandbox\.db was deleted while the sandbox ran/)
    expect(lines.some(l => l.level === 50 && /was deleted/.test(String(l.msg)))).toBe(true)
    // Each refusal is logged with its cause, as any server error.
    expect(lines.some(l => l.msg === 'request failed' && /write refused/.test(JSON.stringify(l.err)))).toBe(
      true,
    )
  })

  it('replaced by another file (a new inode at DB_PATH): writes refused, not ready', async () => {
    const sandbox = await sandboxOnFile()
    const { app, file } = sandbox
    expect((await send(app)).status).toBe(200)
    copyFileSync(file, `${file}.copy`)
    renameSync(`${file}.copy`, file)
    await expectWritesRefused(sandbox)
    const r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.checks.database).toMatch(/was replaced while the sandbox ran/)
  })

  it('overwritten in place so that it is no longer a SQLite file: writes refused, not ready', async () => {
    const sandbox = await sandboxOnFile()
    const { app, file } = sandbox
    expect((await send(app)).status).toBe(200)
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.from('this is not a database at all'), 0, 29, 0)
    closeSync(fd)
    await expectWritesRefused(sandbox)
    expect((await ready(app)).body.checks.database).toMatch(/is no longer a SQLite database/)
  })

  it('with damaged pages (SQLITE_CORRUPT on a read): writes refused from then on, not ready', async () => {
    const { app, file } = await sandboxOnFile()
    for (let i = 0; i < 20; i++) expect((await send(app)).status).toBe(200)
    // Everything into the main file, then garbage over every page but the first (the header
    // stays valid), and SQLite's page cache emptied so that the next read goes to the disk.
    app.store.db.pragma('wal_checkpoint(TRUNCATE)')
    const size = statSync(file).size
    const fd = openSync(file, 'r+')
    writeSync(fd, Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096)
    closeSync(fd)
    app.store.db.pragma('shrink_memory')
    const read = await call(app, 'GET', '/_sandbox/sms/messages')
    expect(read.status).toBe(500)
    expect(read.body.error.code).toBe(90099)
    const r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.checks.database).toMatch(/^the database file is damaged \(SQLITE_CORRUPT/)
    const write = await send(app)
    expect(write.status).toBe(500)
    expect(write.body.error.code).toBe(50019)
  })

  it('on a full disk (SQLITE_FULL): each failing write 500, not ready until a write succeeds again', async () => {
    const { app, lines } = await sandboxOnFile()
    expect((await send(app)).status).toBe(200)
    // SQLite answers SQLITE_FULL as on a full disk once the file may not grow by another page.
    const pages = app.store.db.pragma('page_count', { simple: true }) as number
    app.store.db.pragma(`max_page_count = ${pages}`)
    let failed: Awaited<ReturnType<typeof send>> | undefined
    for (let i = 0; i < 500 && !failed; i++) {
      const res = await send(app)
      if (res.status !== 200) failed = res
    }
    expect(failed?.status).toBe(500)
    expect(failed?.body).toEqual({ error: { code: 50019, message: 'server error' } })
    const r = await ready(app)
    expect(r.status).toBe(503)
    expect(r.body.checks.database).toMatch(/^disk full \(SQLITE_FULL/)
    expect(lines.some(l => /disk full/.test(String(l.msg)))).toBe(true)

    app.store.db.pragma('max_page_count = 1000000')
    expect((await send(app)).status).toBe(200)
    expect(await ready(app)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', scheduler: 'ok' } },
    })
  })
})

describe('the writer and the health monitor', () => {
  it('count ENOSPC from the WAL fsync as a full disk: the write fails, then the next durable write clears it', async () => {
    const db = openDatabase(':memory:')
    const health = createHealth(db)
    let syncError: NodeJS.ErrnoException | null = Object.assign(new Error('no space left on device'), {
      code: 'ENOSPC',
    })
    const wal: WalSync = { sync: done => queueMicrotask(() => done(syncError)), syncNow() {}, close() {} }
    const writer = createWriter(db, { health, seqs: createSeqs(db), wal })
    const bump = () => db.prepare("UPDATE sequences SET value = value + 1 WHERE name = 'msg_id'").run()
    await expect(writer.write(bump)).rejects.toThrow('no space left on device')
    expect(health.problem()).toBe('disk full (ENOSPC): free some space')
    syncError = null
    await writer.write(bump)
    expect(health.problem()).toBeUndefined()
    db.close()
  })
})
