// `npx tsx bench/rearm.ts`: what an answer costs the process beyond its handler, with due work
// waiting in the database: CPU per `GET /v1/accounts/app` answered in-process (inject), whose
// handler reads one row. The scheduler re-arms after every answer; before issue 10 that asked
// SQLite five MIN() queries, each joining every pending row with its app's clock offset.
// Knobs: DEVICES (offline devices a broadcast leaves pending, 20000), SCHEDULES (pending tasks,
// 500), REQUESTS (per round, 5000), ROUNDS (5). Prints the median CPU µs per request.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../src/app.js'
import { ManualClock } from '../src/clock.js'
import { testConfig } from '../src/config.js'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../src/seed/fixtures.js'
import { formatLocal } from '../src/time.js'

const DEVICES = Number(process.env.DEVICES ?? 20_000)
const SCHEDULES = Number(process.env.SCHEDULES ?? 500)
const REQUESTS = Number(process.env.REQUESTS ?? 5_000)
const ROUNDS = Number(process.env.ROUNDS ?? 5)

const dir = mkdtempSync(join(tmpdir(), 'bench-rearm-'))
const clock = new ManualClock()
const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db'), caDir: dir }), { clock })
const authorization = `Basic ${Buffer.from(`${DEFAULT_APP_KEY}:${DEFAULT_MASTER_SECRET}`).toString('base64')}`
const call = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
  const res = await app.inject({
    method,
    url,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    payload: body ? JSON.stringify(body) : undefined,
  })
  if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
  return res.json()
}

// Due work of every kind the scheduler watches: pending deliveries (offline devices), pending
// tasks, reviews under way.
for (let i = 0; i < DEVICES; i++)
  await call('POST', '/_sandbox/push/devices', { platform: 'android', online: false })
await call('POST', '/v3/push', {
  platform: 'all',
  audience: 'all',
  notification: { alert: 'hello' },
})
const sendTime = formatLocal(clock.now() + 24 * 3600_000, 'Asia/Shanghai')
for (let i = 0; i < SCHEDULES; i++)
  await call('POST', '/v1/schedule', {
    send_time: sendTime,
    mobile: String(13800000000 + i),
    temp_id: 2,
    temp_para: { order: 'R', days: '1' },
  })

const figures: number[] = []
for (let round = 0; round < ROUNDS + 1; round++) {
  const before = process.cpuUsage()
  for (let i = 0; i < REQUESTS; i++) {
    await call('GET', '/v1/accounts/app')
    // One turn of the event loop, as between requests on a socket: the re-arm that follows each
    // answer (setImmediate) runs inside the measurement.
    await new Promise(resolve => setImmediate(resolve))
  }
  const used = process.cpuUsage(before)
  if (round > 0) figures.push((used.user + used.system) / REQUESTS) // the first round warms up
}
figures.sort((a, b) => a - b)
console.log(
  `GET /v1/accounts/app, ${DEVICES} pending deliveries, ${SCHEDULES} pending tasks: ` +
    `CPU/req median ${figures[Math.floor(figures.length / 2)]!.toFixed(1)} µs ` +
    `(rounds ${figures.map(f => f.toFixed(1)).join(', ')})`,
)
await app.close()
rmSync(dir, { recursive: true, force: true })
