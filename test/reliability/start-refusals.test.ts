import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createServer } from 'node:net'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { listMigrations, MIGRATIONS_DIR } from '../../src/store/engine/db.js'
import { http, newTenant } from './http.js'
import { type Exit, runToExit, startServer, tempDatabase } from './server-process.js'

// The operator's mistakes about the database file, on the real process: the start is refused
// with ONE line on stderr that names the file and says what to do, a non-zero exit, no stack.

const latest = listMigrations(MIGRATIONS_DIR).at(-1)!.version

// Permissions do not bind root: as root, the cases about them run the server as `nobody`.
const unprivileged = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}

/** A temp folder the unprivileged user can enter, and the database path inside it. */
function sharedDatabase(): string {
  const file = tempDatabase()
  chmodSync(dirname(file), 0o755)
  return file
}

function expectOneLineRefusal(exit: Exit, file: string, reason: RegExp): void {
  const shown = `exit ${exit.code}\nstderr:\n${exit.stderr}\nstdout:\n${exit.stdout}`
  expect(exit.code, shown).not.toBe(0)
  expect(exit.code, shown).not.toBeNull()
  const lines = exit.stderr.trimEnd().split('\n')
  expect(lines, shown).toHaveLength(1)
  expect(lines[0], shown).toMatch(/^jiguang-sandbox cannot start: /)
  expect(lines[0], shown).toContain(file)
  expect(lines[0], shown).toMatch(reason)
  expect(exit.stdout + exit.stderr, shown).not.toMatch(/\n\s+at /) // no stack
}

const cases: Array<{ name: string; setUp(file: string): string; as?: object; reason: RegExp }> = [
  {
    name: 'a file that is not a database',
    setUp: file => {
      writeFileSync(file, 'these are not the pages of a SQLite database, '.repeat(20))
      return file
    },
    reason: /is not a SQLite database or is damaged \(SQLITE_NOTADB.*: restore it from a backup/,
  },
  {
    // SQLite takes 0 bytes for a new database: it started an empty sandbox, ready 200.
    name: 'a file of 0 bytes (truncated, or made by touch)',
    setUp: file => {
      writeFileSync(file, '')
      return file
    },
    reason: /is an empty file \(0 bytes\), not a SQLite database: restore it from a backup, or remove it/,
  },
  {
    name: 'a schema newer than this build knows',
    setUp: file => {
      const db = new Database(file)
      db.pragma(`user_version = ${latest + 1}`)
      db.close()
      return file
    },
    reason: new RegExp(`has schema version ${latest + 1}, newer than this build knows \\(${latest}\\)`),
  },
  {
    name: 'a folder given as DB_PATH',
    setUp: file => {
      mkdirSync(file)
      return file
    },
    reason: /is a folder \(SQLITE_CANTOPEN.*: give the path of a file/,
  },
  {
    name: 'a folder that cannot be created (a file is in the way)',
    setUp: file => {
      writeFileSync(file, '')
      return join(file, 'data', 'sandbox.db')
    },
    reason: /cannot create the folder .*ENOTDIR.*: create it writable for this user/,
  },
  {
    name: 'a folder that cannot be written',
    setUp: file => {
      chmodSync(dirname(file), 0o555)
      return file
    },
    as: unprivileged,
    reason: /the folder .* cannot be written by this user .*: SQLite keeps its -wal file/,
  },
  {
    name: 'a file that cannot be read',
    setUp: file => {
      const db = new Database(file)
      db.exec('CREATE TABLE t (x)')
      db.close()
      chmodSync(file, 0o000)
      return file
    },
    as: unprivileged,
    reason: /cannot be read and written by this user .*: fix its owner or mode/,
  },
]

describe('a start on a database that cannot be used', () => {
  it.each(cases)('is refused in one line: $name', { timeout: 30_000 }, async ({ setUp, as, reason }) => {
    const file = setUp(sharedDatabase())
    expectOneLineRefusal(await runToExit({ DB_PATH: file }, as), file, reason)
  })

  it('by a second process on the same file is refused, naming the holder; after SIGKILL a new one starts', {
    timeout: 60_000,
  }, async () => {
    const file = tempDatabase()
    const first = await startServer({ DB_PATH: file })
    const tenant = newTenant('lock')
    const sent = await http(`${first.url}/v1/codes`, 'POST', tenant.auth, {
      mobile: '13800138000',
      temp_id: 1,
    })
    expect(sent.status).toBe(200)

    const second = await runToExit({ DB_PATH: file })
    expectOneLineRefusal(
      second,
      file,
      new RegExp(
        `is in use by another jiguang-sandbox process \\(pid ${first.child.pid} on host ${hostname()}, started `,
      ),
    )
    // The first one never noticed.
    const again = await http(`${first.url}/v1/codes`, 'POST', tenant.auth, {
      mobile: '13800138001',
      temp_id: 1,
    })
    expect(again.status).toBe(200)

    // The lock dies with its process: no stale lock after SIGKILL, and nothing acknowledged lost.
    await first.kill('SIGKILL')
    const third = await startServer({ DB_PATH: file })
    const found = await http(
      `${third.url}/_sandbox/sms/messages?msg_id=${sent.body.msg_id}`,
      'GET',
      tenant.auth,
    )
    expect(found.body.messages).toHaveLength(1)
    expect(await third.kill('SIGTERM')).toBe(0)
  })
})

// The operator's other mistakes at start: the same one-line refusal, naming what to fix.
describe('a start the operator can fix', () => {
  it('on a PORT another process listens on is refused in one line', { timeout: 30_000 }, async () => {
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    const port = String((holder.address() as AddressInfo).port)
    try {
      const exit = await runToExit({ DB_PATH: tempDatabase(), PORT: port, HOST: '127.0.0.1' })
      expectOneLineRefusal(exit, port, /PORT \d+ is already in use on 127\.0\.0\.1: stop what listens there/)
    } finally {
      holder.close()
    }
  })

  it('on a TLS_PORT another process listens on is refused in one line, like PORT', {
    timeout: 30_000,
  }, async () => {
    const holder = createServer()
    await new Promise<void>(resolve => holder.listen(0, '127.0.0.1', resolve))
    const port = String((holder.address() as AddressInfo).port)
    try {
      const db = tempDatabase()
      const exit = await runToExit({ DB_PATH: db, TLS_PORT: port, HOST: '127.0.0.1', CA_DIR: dirname(db) })
      // Serving plain HTTP only, with ready 200, hid the failure from every client needing HTTPS.
      expectOneLineRefusal(
        exit,
        port,
        /TLS_PORT \d+ is already in use on 127\.0\.0\.1: stop what listens there, or choose another TLS_PORT/,
      )
    } finally {
      holder.close()
    }
  })

  it.each([
    ['a SANDBOX_CONFIG that does not exist', 'missing.yaml', undefined, /cannot be read \(ENOENT\)/],
    ['a SANDBOX_CONFIG that is not YAML', 'seed.yaml', 'apps: [\n', /is not valid YAML: /],
    ['a SANDBOX_CONFIG that is not JSON', 'seed.json', '{"apps": [', /is not valid JSON: /],
    [
      'a SANDBOX_CONFIG whose apps break the rules',
      'seed.json',
      '{"apps":[{"app_key":"short"}]}',
      /invalid SANDBOX_CONFIG .*: apps\.0\.app_key: must be 24 letters or digits; apps\.0\.master_secret/,
    ],
  ])('with %s is refused in one line', { timeout: 30_000 }, async (_name, name, text, reason) => {
    const file = join(dirname(tempDatabase()), name)
    if (text !== undefined) writeFileSync(file, text)
    expectOneLineRefusal(await runToExit({ DB_PATH: tempDatabase(), SANDBOX_CONFIG: file }), file, reason)
  })
})
