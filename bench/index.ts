import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { generator, median } from './load.js'
import { waitIdle } from './processes.js'
import { createWorkspace, startProduct } from './product.js'
import { fillRegistry, pushAlias, pushBroadcast } from './push-scenarios.js'
import { type FigureRow, renderFigures, renderTargets, type Target, versusCeiling } from './report.js'
import { scheduleStorm } from './schedule-scenario.js'
import { smsBatch } from './sms-scenarios.js'
import { startTimes } from './start.js'
import { brief, log, throughput } from './throughput.js'

// `npm run bench`: the targets of issue 11 (`npm run bench -- --issue32`: issue 32's), each a ratio to the ceilings measured in the same run
// or a bound, with the figures they come from. The load comes from wrk (or autocannon, in a
// process of its own) against servers in their own processes: nothing shares the servers' loops.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const STARTS = Number(process.env.BENCH_STARTS ?? 5)
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000)
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 100_000)

async function main(): Promise<void> {
  const ws = createWorkspace()
  const load = generator()
  log(
    `workspace ${ws.dir}; ${ROUNDS} rounds of ${SECONDS} s, 50 connections; load: ${load.generator} (${load.why})`,
  )
  const loadBefore = loadavg()[0]!
  try {
    const t = await throughput(ws, ROUNDS, SECONDS)
    const start = await startTimes(ws, STARTS)
    log(`start: bare Fastify ${list(start.ceiling)} ms, product ${list(start.product)} ms`)

    // The big registry goes into the database before the server opens it (see fillRegistry).
    log(`registry: ${DEVICES} devices in ${fillRegistry(ws.database, DEVICES).toFixed(0)} ms`)
    const server = await startProduct(ws, { logName: 'push.log' })
    const pid = server.child.pid!
    let big: {
      batch: Awaited<ReturnType<typeof smsBatch>>
      alias: Awaited<ReturnType<typeof pushAlias>>
      broadcast: Awaited<ReturnType<typeof pushBroadcast>>
      storm: Awaited<ReturnType<typeof scheduleStorm>>
    }
    try {
      // Each after the last one's due work (its reports arriving) is done: waitIdle.
      await waitIdle(pid)
      const alias = await pushAlias(server.url, ROUNDS, SECONDS, DEVICES, pid)
      log(`alias: ${brief(alias)}`)
      await waitIdle(pid)
      const batch = await smsBatch(server.url, ROUNDS, SECONDS, pid)
      log(`batch: ${brief(batch)}`)
      await waitIdle(pid)
      const broadcast = await pushBroadcast(server.url, 3, pid)
      await waitIdle(pid)
      const storm = await scheduleStorm(server.url, SCHEDULED, pid)
      big = { batch, alias, broadcast, storm }
    } finally {
      await server.stop()
    }

    const f = t.figures
    const rows: FigureRow[] = [
      { name: 'ceiling (a) bare Fastify GET, small JSON', figures: f.ceilingGet },
      { name: 'ceiling (b) bare Fastify POST + Basic + JSON', figures: f.ceilingPost, rss: t.ceilingRss },
      { name: 'GET /v1/accounts/app', figures: f.account },
      { name: 'POST /v1/messages (template SMS, durable)', figures: f.messages, rss: t.sendRss },
      { name: 'POST /v3/push, one registration_id', figures: f.push },
      { name: 'POST /v1/messages/batch, 1000 recipients (1 connection)', figures: big.batch },
      { name: `POST /v3/push, alias in ${DEVICES} devices (1 connection)`, figures: big.alias },
    ]
    const startRatio = median(start.product) / median(start.ceiling)
    const targets: Target[] = [
      versusCeiling('GET /v1/accounts/app', f.account, f.ceilingPost, 0.8),
      versusCeiling('POST /v1/messages, durable', f.messages, f.ceilingPost, 0.6),
      {
        name: 'POST /v1/messages p99, 50 connections',
        measured: `${f.messages.p99.toFixed(1)} ms (ceiling (b) ${f.ceilingPost.p99.toFixed(1)} ms)`,
        value: f.messages.p99,
        required: { atMost: 20 },
        unit: ' ms',
      },
      versusCeiling('POST /v3/push, one registration_id', f.push, f.ceilingPost, 0.5),
      {
        name: 'idle RSS (fresh database, 2 s after the first 200)',
        measured: `${start.idleRss.toFixed(1)} MiB (bare Fastify ${start.ceilingIdleRss.toFixed(1)} MiB)`,
        value: start.idleRss,
        required: { atMost: 80 },
        unit: ' MiB',
      },
      {
        name: 'RSS under the POST /v1/messages load (highest)',
        measured: `${t.sendRss.toFixed(1)} MiB (ceiling (b) under its load ${t.ceilingRss.toFixed(1)} MiB)`,
        value: t.sendRss,
        required: { atMost: 150 },
        unit: ' MiB',
      },
      {
        name: 'fresh database to the first 200, × bare Fastify start',
        measured: `**${startRatio.toFixed(2)} ×** (median ${median(start.product).toFixed(0)} vs ${median(start.ceiling).toFixed(0)} ms)`,
        value: startRatio,
        required: { atMost: 1.3 },
        unit: ' ×',
      },
      {
        name: `alias push in ${DEVICES} devices, p50`,
        measured: `${big.alias.p50.toFixed(2)} ms (p99 ${big.alias.p99.toFixed(2)} ms)`,
        value: big.alias.p50,
        required: { atMost: 20 },
        unit: ' ms',
      },
      {
        name: `broadcast over ${DEVICES} devices`,
        measured: `median ${median(big.broadcast.ms).toFixed(0)} ms (${list(big.broadcast.ms)}; CPU ${list(big.broadcast.cpuMs)} ms)`,
        value: median(big.broadcast.ms),
        required: { atMost: 1000 },
        unit: ' ms',
      },
      {
        name: '1000-recipient batch, p50',
        measured: `${big.batch.p50.toFixed(1)} ms (p99 ${big.batch.p99.toFixed(1)} ms)`,
        value: big.batch.p50,
        required: { atMost: 50 },
        unit: ' ms',
      },
      {
        name: `${SCHEDULED} due schedules at one clock jump`,
        measured: `${big.storm.fired} of ${big.storm.messages} fired in ${(big.storm.ms / 1000).toFixed(2)} s (CPU ${(big.storm.cpuMs / 1000).toFixed(2)} s)`,
        value: big.storm.fired === big.storm.messages ? big.storm.ms / 1000 : Number.NaN,
        required: { atMost: 10 },
        unit: ' s',
      },
    ]
    const loadAfter = loadavg()[0]!
    process.stdout.write(
      `${renderFigures(rows)}\n\n${renderTargets(targets)}\n\n` +
        `load: ${load.generator}; machine load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after\n`,
    )
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(ws.dir, { recursive: true, force: true })
  }
}

const list = (xs: number[]) => xs.map(n => n.toFixed(0)).join(', ')

// `npm run bench -- --issue32`: issue 32's figures and targets instead (bench/issue32.ts).
;(process.argv.includes('--issue32') ? import('./issue32.js').then(m => m.issue32()) : main()).catch(err => {
  console.error(err)
  process.exit(1)
})
