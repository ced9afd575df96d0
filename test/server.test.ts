import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { defaultAuth } from './helpers.js'
import { serverBuild } from './server-build.js'
import { httpsCall } from './tls/https-client.js'

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f()
})

interface Running {
  child: ChildProcess
  lines: Record<string, unknown>[]
  raw: string[]
  exited: Promise<number | null>
  /** The first log line whose msg matches. */
  waitFor(msg: RegExp): Promise<Record<string, unknown>>
}

/** The server's build as its own process, as `npm start` runs it, logging JSON to stdout. */
function startServer(env: Record<string, string>): Running {
  const child = spawn(process.execPath, [serverBuild().server], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines: Record<string, unknown>[] = []
  const raw: string[] = []
  const waiters: { msg: RegExp; resolve: (l: Record<string, unknown>) => void }[] = []
  createInterface({ input: child.stdout! }).on('line', text => {
    raw.push(text)
    const line = JSON.parse(text) as Record<string, unknown>
    lines.push(line)
    for (const w of waiters.filter(w => w.msg.test(String(line.msg)))) w.resolve(line)
  })
  const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
  cleanup.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
  })
  return {
    child,
    lines,
    raw,
    exited,
    waitFor: msg =>
      new Promise(resolve => {
        const seen = lines.find(l => msg.test(String(l.msg)))
        if (seen) resolve(seen)
        else waiters.push({ msg, resolve })
      }),
  }
}

describe('the server process', () => {
  it('answers over HTTP and TLS, then exits 0 on SIGTERM with the database closed cleanly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandbox-server-'))
    cleanup.push(() => rm(dir, { recursive: true, force: true }))
    const server = startServer({ DB_PATH: join(dir, 'sandbox.db'), TLS_PORT: '0' })
    const { url } = (await server.waitFor(/^jiguang-sandbox listening/)) as { url: string }
    const { tlsPort } = (await server.waitFor(/^TLS on port/)) as { tlsPort: number }

    const health = await fetch(`${url}/_sandbox/health`)
    expect(health.status).toBe(200)
    const ca = await (await fetch(`${url}/_sandbox/ca.pem`)).text()
    const sent = await httpsCall(`https://api.sms.jpush.cn:${tlsPort}/v1/codes`, {
      ca,
      method: 'POST',
      auth: defaultAuth,
      body: { mobile: '13800138000', temp_id: 1 },
    })
    expect(sent.status).toBe(200)
    // The CA sits beside the database, on the same volume.
    expect(existsSync(join(dir, 'sandbox-ca.pem'))).toBe(true)

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    expect(server.lines.map(l => l.msg)).toEqual(expect.arrayContaining(['shutting down', 'closed']))
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(existsSync(join(dir, 'sandbox.db-wal'))).toBe(false)
    // Every line is pino JSON, and the Basic credentials never appear in it.
    const secret = defaultAuth.slice('Basic '.length)
    expect(server.raw.some(l => l.includes(secret))).toBe(false)
  })

  it('exits 0 on SIGINT too, with keep-alive connections open', async () => {
    const server = startServer({ DB_PATH: ':memory:' })
    const { url } = (await server.waitFor(/^jiguang-sandbox listening/)) as { url: string }
    expect((await fetch(`${url}/_sandbox/ready`)).status).toBe(200) // fetch keeps its connection alive
    server.child.kill('SIGINT')
    expect(await server.exited).toBe(0)
  })
})
