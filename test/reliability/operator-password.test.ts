import { readFileSync, statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { basic } from '../helpers.js'
import { http } from './http.js'
import { startServer, tempDatabase } from './server-process.js'

// The operator of a sandbox that listens beyond loopback (the image: HOST=0.0.0.0) is not
// `operator:operator`: the first start generates a password, says it once, and keeps it beside the
// database for the next starts; SANDBOX_OPERATOR sets one (never printed); loopback keeps the
// default. On the real process: the start line is the operator's only way to learn it.

const DEFAULT = basic('operator', 'operator')
// The test runner's own environment must not choose for the sandbox.
const unset = { SANDBOX_OPERATOR: '' }

/** The start line about the operator (written whatever LOG_LEVEL says). */
const operatorLine = /^(operator |no operator)/

describe('the operator beyond loopback', () => {
  it('is a password generated at the first start, said once, kept for the next starts', {
    timeout: 60_000,
  }, async () => {
    const db = tempDatabase()
    const first = await startServer({ ...unset, DB_PATH: db, HOST: '0.0.0.0', LOG_LEVEL: 'warn' })
    const line = await first.waitForLog(operatorLine)
    expect(line).toMatchObject({ operator: 'operator', operatorFrom: 'generated' })
    const password = String(line.operatorPassword)
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(line.msg).toContain(
      `operator operator:${password}, generated for HOST 0.0.0.0 and kept in ${db}-operator`,
    )
    const base = first.url.replace('0.0.0.0', '127.0.0.1')
    // The well-known default opens nothing; the generated password does.
    expect((await http(`${base}/_sandbox/apps`, 'GET', DEFAULT)).status).toBe(401)
    const generated = basic('operator', password)
    expect((await http(`${base}/_sandbox/apps`, 'GET', generated)).status).toBe(200)
    expect(readFileSync(`${db}-operator`, 'utf8')).toBe(`operator:${password}\n`)
    expect(statSync(`${db}-operator`).mode & 0o777).toBe(0o600)
    expect(await first.kill('SIGTERM')).toBe(0)

    // A new process on the same database (a new container on the same volume): the same password,
    // not shown again.
    const second = await startServer({ ...unset, DB_PATH: db, HOST: '0.0.0.0' })
    const again = await second.waitForLog(operatorLine)
    expect(again).toMatchObject({ operator: 'operator', operatorFrom: 'kept' })
    expect(second.output()).not.toContain(password)
    const base2 = second.url.replace('0.0.0.0', '127.0.0.1')
    expect((await http(`${base2}/_sandbox/apps`, 'GET', generated)).status).toBe(200)
    expect((await http(`${base2}/_sandbox/apps`, 'GET', DEFAULT)).status).toBe(401)
    expect(await second.kill('SIGTERM')).toBe(0)
  })

  it("is SANDBOX_OPERATOR's when set, whose password is never printed", { timeout: 30_000 }, async () => {
    const db = tempDatabase()
    const server = await startServer({ DB_PATH: db, HOST: '0.0.0.0', SANDBOX_OPERATOR: 'ops:s3cret-pass' })
    const line = await server.waitForLog(operatorLine)
    expect(line).toMatchObject({
      operator: 'ops',
      operatorFrom: 'setting',
      msg: 'operator ops, from SANDBOX_OPERATOR',
    })
    const base = server.url.replace('0.0.0.0', '127.0.0.1')
    expect((await http(`${base}/_sandbox/apps`, 'GET', basic('ops', 's3cret-pass'))).status).toBe(200)
    expect((await http(`${base}/_sandbox/apps`, 'GET', DEFAULT)).status).toBe(401)
    await server.kill('SIGTERM')
    expect(server.output()).not.toContain('s3cret-pass')
  })

  it('on loopback is operator:operator, and the start says so', { timeout: 30_000 }, async () => {
    const server = await startServer({ ...unset, DB_PATH: tempDatabase() })
    const line = await server.waitForLog(operatorLine)
    expect(line).toMatchObject({ operator: 'operator', operatorFrom: 'loopback default' })
    expect(line.msg).toMatch(
      /^operator operator:operator, the default while HOST 127\.0\.0\.1 is loopback; set SANDBOX_OPERATOR/,
    )
    expect((await http(`${server.url}/_sandbox/apps`, 'GET', DEFAULT)).status).toBe(200)
    await server.kill('SIGTERM')
  })
})
