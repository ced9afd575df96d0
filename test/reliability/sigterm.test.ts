import { connect as netConnect } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { connect as tlsConnect } from 'node:tls'
import { describe, expect, it } from 'vitest'
import { http, mobiles, newTenant, SCALE, type Tenant } from './http.js'
import { type RawAnswer, rawRequest, readAnswers } from './pipeline.js'
import { type ServerProcess, startServer, tempDatabase } from './server-process.js'

// SIGTERM while keep-alive connections (plain and TLS) carry pipelined requests behind one that is
// held (an armed fault with delay_ms): every request the server has received gets its real answer,
// every request that arrives during the close gets the vendor's 503, nothing is committed without
// its answer, and the process exits 0.

const HOLD_MS = 2_800 // under the 3 s grace of src/process/shutdown.ts, counted from the close, which comes later
const QUEUED = 6

// What arrives on the open connections once the close has begun, and the envelope each must get.
const late: Array<{ method: string; path: string; body?: unknown; code: number }> = [
  { method: 'POST', path: '/v1/messages', body: { mobile: '13900000000', temp_id: 1 }, code: 50019 },
  { method: 'POST', path: '/v3/push', body: { platform: 'all', audience: 'all' }, code: 1000 },
  { method: 'GET', path: '/v3/devices/1a0000000000000000', code: 7000 },
  { method: 'GET', path: '/v3/received?msg_ids=1', code: 10 },
  { method: 'GET', path: '/_sandbox/sms/messages', code: 90099 },
]

interface Round {
  tenant: Tenant
  acked: string[]
}

function storedTemplates(server: ServerProcess, tenant: Tenant): Promise<number> {
  return http(`${server.url}/_sandbox/sms/messages?limit=100`, 'GET', tenant.auth).then(
    a => (a.body.messages as Array<{ kind: string }>).filter(m => m.kind !== 'code').length,
  )
}

async function round(database: string): Promise<Round> {
  const server = await startServer({ DB_PATH: database, TLS_PORT: '0' })
  const { tlsPort } = (await server.waitForLog(/^TLS on port/)) as { tlsPort: number }
  const tenant = newTenant('term')
  expect((await http(`${server.url}/v1/accounts/app`, 'GET', tenant.auth)).status).toBe(200)
  const fault = { method: 'POST', path: '/v1/codes', delay_ms: HOLD_MS, times: 2 }
  expect((await http(`${server.url}/_sandbox/faults`, 'POST', tenant.auth, fault)).status).toBe(200)
  const ca = await (await fetch(`${server.url}/_sandbox/ca.pem`)).text()
  const port = Number(new URL(server.url).port)
  const connections = [
    netConnect({ port, host: '127.0.0.1' }),
    tlsConnect({ port: tlsPort, host: '127.0.0.1', servername: 'api.sms.jpush.cn', ca }),
  ]

  // One held send code, then sends queued behind it on the same connection, in one write.
  const next = mobiles()
  const answers = connections.map(socket => {
    const reading = readAnswers(socket)
    const held = {
      method: 'POST',
      path: '/v1/codes',
      auth: tenant.auth,
      body: { mobile: next(), temp_id: 1 },
    }
    const queued = Array.from({ length: QUEUED }, (_, i) => ({
      method: 'POST',
      path: '/v1/messages',
      auth: tenant.auth,
      body: { mobile: next(), temp_id: 2, temp_para: { order: `Q${i}`, days: '1' } },
    }))
    socket.write([held, ...queued].map(rawRequest).join(''))
    return reading
  })
  // The queued sends are committed (their answers wait behind the held one): the server has them.
  const deadline = Date.now() + 15_000
  while ((await storedTemplates(server, tenant)) < 2 * QUEUED) {
    expect(Date.now(), 'queued sends never stored').toBeLessThan(deadline)
    await sleep(20)
  }

  const exited = server.kill('SIGTERM')
  await server.waitForLog(/^shutting down/)
  for (const socket of connections)
    socket.write(late.map(r => rawRequest({ ...r, auth: tenant.auth })).join(''))

  const acked: string[] = []
  for (const got of await Promise.all(answers)) {
    const summary = JSON.stringify(got.map(a => [a.status, a.body]))
    expect(got, summary).toHaveLength(1 + QUEUED + late.length)
    for (const a of got.slice(0, 1 + QUEUED)) {
      expect(a.status, summary).toBe(200)
      acked.push(JSON.parse(a.body).msg_id)
    }
    got.slice(1 + QUEUED).forEach((a: RawAnswer, i) => {
      expect(a.status, summary).toBe(503)
      expect(JSON.parse(a.body).error.code, `${late[i]!.path}: ${a.body}`).toBe(late[i]!.code)
    })
    expect(got.at(-1)!.headers.connection).toBe('close')
  }
  expect(await exited, server.output()).toBe(0)
  return { tenant, acked }
}

describe('SIGTERM under load', () => {
  it(`answers every request it received, refuses the rest in the vendor envelope, exits 0 (${3 * SCALE} rounds)`, {
    timeout: 60_000 * SCALE,
  }, async () => {
    const database = tempDatabase()
    const rounds: Round[] = []
    for (let i = 0; i < 3 * SCALE; i++) rounds.push(await round(database))

    // Nothing committed without its answer: exactly the acknowledged sends are stored.
    const server = await startServer({ DB_PATH: database })
    for (const { tenant, acked } of rounds) {
      const all = await http(`${server.url}/_sandbox/sms/messages?limit=100`, 'GET', tenant.auth)
      const stored = (all.body.messages as Array<{ msg_id: string }>).map(m => m.msg_id)
      expect(stored.sort()).toEqual([...acked].sort())
    }
    expect(await server.kill('SIGTERM')).toBe(0)
  })
})
