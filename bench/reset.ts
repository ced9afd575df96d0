// `npx tsx bench/reset.ts`: how long `POST /_sandbox/reset` takes for an app with MESSAGES text
// messages (each with its report; a tenth of them verification codes), a push to every device and
// a callback outbox, measured in-process (inject) on a database file, persistence on: from the
// request to the durable answer, the whole reset included (every app_key table emptied for the
// app, the fixtures made again, the fsync). Another app of the same size stays beside it, so the
// deletes run against tables that also hold other apps' rows.
// Wall time includes waiting for the CPU on a busy machine and for the disk (fsync); CPU time is
// the process's own work (user + system), the figure a loaded machine distorts least.
// Knobs: MESSAGES (10000), ROUNDS (5). Prints each round and the medians in ms.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../src/app.js'
import { ManualClock } from '../src/clock.js'
import { testConfig } from '../src/config.js'

const MESSAGES = Number(process.env.MESSAGES ?? 10_000)
const ROUNDS = Number(process.env.ROUNDS ?? 5)
const BATCH = 1000

const dir = mkdtempSync(join(tmpdir(), 'bench-reset-'))
const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db'), caDir: dir }), {
  clock: new ManualClock(),
})
const basic = (key: string) => `Basic ${Buffer.from(`${key}:${key.replace(/^./, 's')}`).toString('base64')}`

async function call(authorization: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) {
  const res = await app.inject({
    method,
    url,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  })
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

/** MESSAGES messages to distinct mobiles (in batches of 1000), codes, a push, and replies. */
async function fill(authorization: string): Promise<void> {
  await call(authorization, 'PATCH', '/_sandbox/app', { balances: { industry: MESSAGES * 2 } })
  const codes = MESSAGES / 10
  for (let i = 0; i < codes; i++)
    await call(authorization, 'POST', '/v1/codes', { mobile: String(13900000000 + i), temp_id: 1 })
  for (let sent = codes; sent < MESSAGES; sent += BATCH) {
    const recipients = Array.from({ length: Math.min(BATCH, MESSAGES - sent) }, (_, i) => ({
      mobile: String(13800000000 + sent + i),
      temp_para: { order: 'B', days: '1' },
    }))
    await call(authorization, 'POST', '/v1/messages/batch', { temp_id: 2, recipients })
  }
  await call(authorization, 'POST', '/v3/push', {
    platform: 'all',
    audience: 'all',
    notification: { alert: 'x' },
  })
  await call(authorization, 'POST', '/_sandbox/sms/replies', { mobile: '13700000000', content: 'hi' })
}

const other = basic('benchother00000000000001')
await fill(other)
const auth = basic('benchreset00000000000001')
const wall: number[] = []
const cpu: number[] = []
for (let round = 0; round < ROUNDS; round++) {
  await fill(auth)
  const rows = app.store.db
    .prepare('SELECT count(*) AS n FROM messages WHERE app_key = ?')
    .get('benchreset00000000000001') as { n: number }
  const start = process.hrtime.bigint()
  const before = process.cpuUsage()
  await call(auth, 'POST', '/_sandbox/reset')
  const used = process.cpuUsage(before)
  wall.push(Number(process.hrtime.bigint() - start) / 1e6)
  cpu.push((used.user + used.system) / 1000)
  console.log(
    `round ${round + 1}: reset of an app with ${rows.n} messages: ${wall.at(-1)!.toFixed(1)} ms wall, ${cpu.at(-1)!.toFixed(1)} ms CPU`,
  )
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(1)
console.log(`median: ${median(wall)} ms wall, ${median(cpu)} ms CPU (MESSAGES=${MESSAGES}, ${ROUNDS} rounds)`)
await app.close()
rmSync(dir, { recursive: true, force: true })
