import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { http, mobiles, newTenant, SCALE, type Tenant } from './http.js'
import { type ServerProcess, startServer, tempDatabase } from './server-process.js'

// Issue 19, class 4: the `-wal` file deleted under load. Sends kept answering 200, ready said
// ready, and after a SIGKILL 0 of 5 acknowledged messages were there: SQLite kept committing into
// a file that no longer had a name. Now the sandbox sees it before the next commit and repairs it
// (src/store/engine/health.ts); when it cannot (its folder no longer writable), writes are refused
// in their envelope and ready says what to do, until it can; a file at the process's file-size
// limit is named as such.

const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) {
    chmodSync(d, 0o755)
    rmSync(d, { recursive: true, force: true })
  }
})

/** Senders on the victim tenant until `stop()`: the msg_ids answered 200. */
function senders(server: ServerProcess, tenant: Tenant, workers = 8) {
  const acked: string[] = []
  const failed: Array<{ status: number; code: unknown }> = []
  const next = mobiles()
  let running = true
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const a = await http(`${server.url}/v1/messages`, 'POST', tenant.auth, {
        mobile: next(),
        temp_id: 2,
        temp_para: { order: 'W', days: '1' },
      }).catch(() => undefined)
      if (!a) return // the process is gone
      if (a.status === 200) acked.push(a.body.msg_id)
      else failed.push({ status: a.status, code: a.body?.error?.code })
    }
  })
  return {
    acked,
    failed,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

const until = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}

async function verify(server: ServerProcess, tenant: Tenant, acked: string[]) {
  for (const msgId of acked) {
    const found = await http(`${server.url}/_sandbox/sms/messages?msg_id=${msgId}`, 'GET', tenant.auth)
    expect(found.body.messages, `msg_id ${msgId} answered 200 but is gone`).toHaveLength(1)
  }
}

describe('the -wal file deleted under load', () => {
  it(`is repaired at once: every acknowledged send survives SIGKILL (${2 * SCALE} rounds)`, {
    timeout: 60_000 * SCALE,
  }, async () => {
    let total = 0
    let afterDeletion = 0
    for (let round = 0; round < 2 * SCALE; round++) {
      const db = tempDatabase()
      let server = await startServer({ DB_PATH: db })
      const tenant = newTenant('wal')
      const load = senders(server, tenant)
      await until(() => load.acked.length >= 20, '20 sends')
      rmSync(`${db}-wal`)
      const at = load.acked.length
      await until(() => load.acked.length >= at + 20, '20 more sends')
      const ready = await http(`${server.url}/_sandbox/ready`, 'GET', '')
      await server.kill('SIGKILL')
      await load.stop()
      expect(load.failed).toEqual([])
      expect(ready.status).toBe(200)
      const line = await server.waitForLog(/-wal file .* was deleted while the sandbox ran/)
      expect(line.msg).toContain('what it held was written into the database file and a new -wal made')
      server = await startServer({ DB_PATH: db })
      await verify(server, tenant, load.acked)
      await server.kill('SIGTERM')
      total += load.acked.length
      afterDeletion += load.acked.length - at
    }
    console.log(
      `${2 * SCALE} rounds: ${total} sends acknowledged, ${afterDeletion} after the deletion; all found after SIGKILL`,
    )
  })

  it('that cannot be made again (a folder no longer writable): writes refused, ready 503 saying what to do, then repaired by itself', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jiguang-wal-'))
    dirs.push(dir)
    if (unprivileged.uid !== undefined) chownSync(dir, unprivileged.uid, unprivileged.gid)
    const db = join(dir, 'sandbox.db')
    let server = await startServer({ DB_PATH: db }, unprivileged)
    const tenant = newTenant('walro')
    const load = senders(server, tenant, 4)
    await until(() => load.acked.length >= 20, '20 sends')
    rmSync(`${db}-wal`)
    chmodSync(dir, 0o555)
    await until(() => load.failed.length >= 5, 'refused sends')
    const ready = await http(`${server.url}/_sandbox/ready`, 'GET', '')
    expect(ready.status).toBe(503)
    expect(ready.body.checks.database).toMatch(
      /-wal file .* was deleted while the sandbox ran, and it cannot be made again .*: make the folder of .* writable/,
    )
    // Refused in the envelope, never acknowledged into a WAL a restart would not find.
    expect(load.failed.every(f => f.status === 500 && f.code === 50019)).toBe(true)
    expect((await http(`${server.url}/_sandbox/health`, 'GET', '')).status).toBe(200)
    chmodSync(dir, 0o755)
    await until(
      async () => (await http(`${server.url}/_sandbox/ready`, 'GET', '')).status === 200,
      'ready again',
    )
    const at = load.acked.length
    await until(() => load.acked.length >= at + 20, 'sends after the repair')
    await server.kill('SIGKILL')
    await load.stop()
    // Said once by the watch (each refused request is also logged as a server error, with its cause).
    const said = server
      .output()
      .split('\n')
      .filter(l => l.startsWith('{'))
      .map(l => JSON.parse(l))
      .filter(l => l.component === 'store' && String(l.msg).includes('cannot be made again'))
    expect(said, 'logged once').toHaveLength(1)
    server = await startServer({ DB_PATH: db }, unprivileged)
    await verify(server, tenant, load.acked)
    await server.kill('SIGTERM')
  })
})

describe('a database at the file-size limit (RLIMIT_FSIZE)', () => {
  it('refuses writes with their envelope, and ready names the limit; the process stays up', {
    timeout: 60_000,
  }, async () => {
    // 2 MiB: a few thousand texts; Node ignores the SIGXFSZ that comes with the failing write.
    const server = await startServer({ DB_PATH: tempDatabase() }, { ulimit: '-f 2048' })
    const tenant = newTenant('fsize')
    const load = senders(server, tenant, 4)
    // A -wal at the limit is emptied into the database file at once (writes go on); once the
    // database file itself is at the limit, nothing can be written any more.
    let ready = { status: 200, body: { checks: { database: '' } } }
    await until(
      async () => {
        ready = await http(`${server.url}/_sandbox/ready`, 'GET', '')
        return ready.status === 503 && load.failed.length > 0
      },
      'not ready at the limit',
      60_000,
    )
    await load.stop()
    expect(load.failed.every(f => f.status === 500 && f.code === 50019)).toBe(true)
    expect(ready.body.checks.database).toMatch(
      /reached the file-size limit of this process \(RLIMIT_FSIZE, ulimit -f: 2097152 bytes\): raise it and restart/,
    )
    expect((await http(`${server.url}/_sandbox/health`, 'GET', '')).status).toBe(200)
    await server.waitForLog(/reached the file-size limit/)
    await server.kill('SIGTERM')
  })
})
