// `npx tsx bench/cpu-per-request.ts`: POST /v1/messages rounds with the CPU time the product spent
// per request (from /proc), a figure far less noisy than req/s on a shared machine. CEILING=1
// first measures ceiling (b) the same way, for the ratios. With
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" it also writes a V8 CPU profile.
import { join } from 'node:path'
import { type Figures, loadRound } from './load.js'
import { cpuSplit, sampleRss, startServer } from './processes.js'
import { APPS, basic, createWorkspace, mobiles, startProduct } from './product.js'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const SECS = Number(process.env.SECS ?? 5)
const ws = createWorkspace()
const auth = basic(APPS.main.key, APPS.main.secret)
const show = (name: string, f: Figures) =>
  `${name}: rps ${f.rps.toFixed(0)} p50 ${f.p50} p99 ${f.p99} non2xx ${f.non2xx} cpu/req ${f.cpuUs.toFixed(0)} µs`

let ceiling: Figures | undefined
if (process.env.CEILING) {
  const server = await startServer(['bench/ceiling.mjs'], {}, join(ws.dir, 'ceiling.log'))
  const body = JSON.stringify({
    mobile: '13800138000',
    temp_id: 2,
    temp_para: { order: 'SO20260101000042', days: '3' },
  })
  for (let i = 0; i < ROUNDS; i++) {
    const f = await loadRound({
      url: server.url,
      pid: server.child.pid,
      method: 'POST',
      path: '/post',
      headers: { authorization: auth },
      body,
      durationSeconds: SECS,
    })
    console.log(show('ceiling (b)', f))
    if (!ceiling || f.rps > ceiling.rps) ceiling = f
  }
  await server.stop()
}

const server = await startProduct(ws)
const next = mobiles()
for (let i = 0; i < ROUNDS; i++) {
  const before = cpuSplit(server.child.pid!)
  const rss = sampleRss(server.child.pid!)
  const f = await loadRound({
    url: server.url,
    pid: server.child.pid,
    method: 'POST',
    path: '/v1/messages',
    headers: { authorization: auth },
    body: () =>
      JSON.stringify({ mobile: next(), temp_id: 2, temp_para: { order: 'SO20260101000042', days: '3' } }),
    durationSeconds: SECS,
  })
  const ratio = ceiling
    ? ` | ${((100 * f.rps) / ceiling.rps).toFixed(0)} % of (b) req/s, CPU/req ×${(f.cpuUs / ceiling.cpuUs).toFixed(1)}`
    : ''
  const after = cpuSplit(server.child.pid!)
  const maxRss = rss.stop()
  const requests = f.rps * SECS
  const split = ` (user ${(((after.user - before.user) / requests) * 1e6).toFixed(0)}, system ${(((after.system - before.system) / requests) * 1e6).toFixed(0)})`
  console.log(`${show('POST /v1/messages', f)}${split}, RSS ${maxRss.toFixed(0)} MiB${ratio}`)
}
await server.stop()
