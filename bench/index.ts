import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { type Figures, loadRounds, median } from './load.js'
import { sampleRss, startServer } from './processes.js'
import { APPS, basic, createWorkspace, postBody, startProduct } from './product.js'
import { fillRegistry, type Outcome, pushAlias, pushBroadcast, pushSingle } from './push-scenarios.js'
import { type Row, renderTable } from './report.js'
import { scheduleStorm } from './schedule-scenario.js'
import { coldStart, smsLoad } from './sms-scenarios.js'

// `npm run bench`: the ceiling and the product measured in the same run on the same machine, each
// figure a median of several bounded rounds, load from this process, servers in their own.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000)
const SCHEDULED = Number(process.env.BENCH_SCHEDULED ?? 100_000)

const auth = basic(APPS.main.key, APPS.main.secret)

async function ceilings(dir: string) {
  const server = await startServer(['bench/ceiling.mjs'], {}, join(dir, 'ceiling.log'))
  try {
    const get = await loadRounds(
      { url: server.url, pid: server.child.pid, path: '/ping', durationSeconds: SECONDS },
      ROUNDS,
    )
    const rss = sampleRss(server.child.pid!)
    const post = await loadRounds(
      {
        url: server.url,
        pid: server.child.pid,
        method: 'POST',
        path: '/post',
        headers: { authorization: auth },
        body: postBody,
        durationSeconds: SECONDS,
      },
      ROUNDS,
    )
    return { get, post, rss: rss.stop() }
  } finally {
    await server.stop()
  }
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`)
}

async function main(): Promise<void> {
  const ws = createWorkspace()
  log(`workspace ${ws.dir}; ${ROUNDS} rounds of ${SECONDS} s, 50 connections`)
  try {
    const ceiling = await ceilings(ws.dir)
    log(`ceiling GET ${ceiling.get.rps.toFixed(0)} req/s, POST+auth ${ceiling.post.rps.toFixed(0)} req/s`)
    const sms = await smsLoad(ws, ROUNDS, SECONDS)
    log(`POST /v1/messages ${sms.messages.rps.toFixed(0)} req/s p99 ${sms.messages.p99} ms`)
    const cold = await coldStart(ws, 5)
    log(
      `cold start ${cold.coldStart.map(n => n.toFixed(0)).join(', ')} ms; idle RSS ${cold.idleRss.toFixed(1)} MiB`,
    )

    // The big registry goes into the database before the server opens it (see fillRegistry).
    const registry = fillRegistry(ws.database, DEVICES)
    log(
      `registry: ${'ok' in registry ? `${DEVICES} devices in ${registry.ok.toFixed(0)} ms` : registry.skipped}`,
    )
    const server = await startProduct(ws, 0, 'push.log')
    let push: {
      single: Outcome<Figures>
      registry: Outcome<number>
      alias?: Outcome<Figures>
      broadcast?: Outcome<number[]>
    }
    let storm: Awaited<ReturnType<typeof scheduleStorm>>
    try {
      const single = await pushSingle(server.url, ROUNDS, SECONDS, server.child.pid)
      push = { single, registry }
      if ('ok' in registry) {
        push.alias = await pushAlias(server.url, ROUNDS, server.child.pid)
        push.broadcast = await pushBroadcast(server.url, 3)
      }
      storm = await scheduleStorm(server.url, SCHEDULED)
    } finally {
      await server.stop()
    }

    const rows: Row[] = [
      { name: 'ceiling (a) bare Fastify GET', figures: ceiling.get },
      { name: 'ceiling (b) bare Fastify POST + Basic', figures: ceiling.post, rss: ceiling.rss },
      {
        name: 'POST /v1/messages (template SMS, durable)',
        figures: sms.messages,
        rss: sms.rssUnderLoad,
        ceiling: ceiling.post,
        ceilingRss: ceiling.rss,
        target: '≥ 60 % of (b), p99 ≤ 20 ms, RSS ≤ 150 MiB',
      },
      {
        name: 'POST /v1/messages/batch, 1000 recipients (1 conn)',
        figures: sms.batch,
        target: 'p50 ≤ 50 ms',
      },
      outcomeRow('POST /v3/push, one registration_id', push.single, ceiling.post, '≥ 50 % of (b)'),
      outcomeRow(
        `POST /v3/push, alias in ${DEVICES} devices (1 conn)`,
        push.alias ?? push.registry,
        undefined,
        'p50 ≤ 20 ms',
      ),
    ]
    const extra = [
      `| cold start to first 200, existing DB | median ${median(cold.coldStart).toFixed(0)} ms (${cold.coldStart.map(n => n.toFixed(0)).join(', ')}) | ≤ 300 ms |`,
      `| idle RSS | ${cold.idleRss.toFixed(1)} MiB (ceiling process under load: ${ceiling.rss.toFixed(1)} MiB) | ≤ 80 MiB |`,
      `| RSS under POST /v1/messages load | ${sms.rssUnderLoad.toFixed(1)} MiB (${(sms.rssUnderLoad / ceiling.rss).toFixed(2)}× ceiling) | ≤ 150 MiB |`,
      broadcastLine(push.broadcast ?? push.registry, DEVICES),
      stormLine(storm),
    ]
    process.stdout.write(`${renderTable(rows, extra)}\n`)
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(ws.dir, { recursive: true, force: true })
  }
}

function outcomeRow(
  name: string,
  o: Outcome<Figures | number>,
  ceiling: Figures | undefined,
  target: string,
): Row {
  if ('skipped' in o) return { name, skipped: o.skipped, target }
  if (typeof o.ok === 'number') return { name, skipped: 'no figures', target }
  return { name, figures: o.ok, ...(ceiling ? { ceiling } : {}), target }
}

function broadcastLine(o: Outcome<number[] | number>, devices: number): string {
  const name = `POST /v3/push broadcast over ${devices} devices`
  if ('skipped' in o) return `| ${name} | skipped: ${o.skipped} | ≤ 1 s |`
  if (typeof o.ok === 'number') return `| ${name} | no figures | ≤ 1 s |`
  return `| ${name} | median ${median(o.ok).toFixed(0)} ms (${o.ok.map(n => n.toFixed(0)).join(', ')}) | ≤ 1 s |`
}

function stormLine(o: Awaited<ReturnType<typeof scheduleStorm>>): string {
  const name = `${SCHEDULED} scheduled messages due at one clock jump`
  if ('skipped' in o) return `| ${name} | skipped: ${o.skipped} | ≤ 10 s |`
  return `| ${name} | ${o.ok.fired} of ${o.ok.messages} fired in ${(o.ok.ms / 1000).toFixed(2)} s | ≤ 10 s |`
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
