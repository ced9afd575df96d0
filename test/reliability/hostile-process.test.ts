import { spawn } from 'node:child_process'
import { closeSync, openSync } from 'node:fs'
import { createServer } from 'node:net'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { javaForm, PNG, unclosed } from '../fixtures/sign-forms.js'
import { defaultAuth } from '../helpers.js'
import { serverBuild } from '../server-build.js'
import { startServer, tempDatabase } from './server-process.js'

// The sandbox as a real process, against what would end it: one request, a broken log
// destination, an 'error' nobody foresaw. Each time it must keep answering everyone.

async function alive(url: string): Promise<number> {
  const res = await request(`${url}/v1/accounts/app`, { headers: { authorization: defaultAuth } })
  await res.body.dump()
  return res.statusCode
}

describe('the server process survives', () => {
  it('a multipart form that ends inside its file part', { timeout: 60_000 }, async () => {
    const server = await startServer({ DB_PATH: tempDatabase() })
    const form = unclosed(javaForm({ sign: '截断签名', type: '1', images: [{ name: 'a.png', bytes: PNG }] }))
    const res = await request(`${server.url}/v1/sign`, {
      method: 'POST',
      headers: { authorization: defaultAuth, 'content-type': form.contentType },
      body: form.body,
    })
    expect(res.statusCode).toBe(403)
    expect(await res.body.json()).toEqual({ error: { code: 50007, message: 'invalid body' } })
    expect(await alive(server.url)).toBe(200)
    await server.kill()
  })

  it('an error event nobody foresaw: logged as fatal, still serving', { timeout: 60_000 }, async () => {
    const server = await startServer(
      { DB_PATH: tempDatabase() },
      { preload: ['./test/fixtures/unforeseen-error.ts'] },
    )
    server.child.kill('SIGUSR2')
    await expect.poll(() => server.output(), { timeout: 20_000 }).toContain('an error event nobody foresaw')
    const line = JSON.parse(
      server
        .output()
        .split('\n')
        .find(l => l.includes('nobody foresaw'))!,
    )
    expect(line).toMatchObject({ level: 60, origin: 'uncaughtException', uncaught: 1 })
    expect(line.msg).toMatch(/bug in jiguang-sandbox/)
    expect(await alive(server.url)).toBe(200)
    await server.kill()
  })

  it('a log destination that fails (stdout on a full disk)', { timeout: 60_000 }, async () => {
    // /dev/full answers every write with ENOSPC; the URL cannot be read from the log, so the port
    // is chosen here.
    const port = await freePort()
    const full = openSync('/dev/full', 'w')
    const child = spawn(process.execPath, [serverBuild().server], {
      env: { ...process.env, PORT: String(port), DB_PATH: tempDatabase(), LOG_LEVEL: 'info' },
      stdio: ['ignore', full, 'pipe'],
    })
    closeSync(full) // the child has its own copy
    let stderr = ''
    child.stderr!.on('data', chunk => {
      stderr += chunk
    })
    try {
      const url = `http://127.0.0.1:${port}`
      await expect.poll(() => alive(url).catch(() => 0), { timeout: 20_000, interval: 200 }).toBe(200)
      // Many requests, so many failed log writes: still answering, still running.
      for (let i = 0; i < 20; i++) expect(await alive(url)).toBe(200)
      expect(child.exitCode).toBe(null)
      expect(stderr).toMatch(/cannot write the log to stdout \(ENOSPC\)/)
      expect(stderr.match(/cannot write the log/g)).toHaveLength(1)
    } finally {
      child.kill('SIGKILL')
    }
  })
})

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}
