// `npx tsx bench/cpu-per-request.ts`: rounds of one product scenario with the CPU time the product
// spent per request (from /proc), a figure far less noisy than req/s on a shared machine.
// SCENARIO=messages (default) | account | push. CEILING=1 first measures ceiling (b) the same
// way, for the ratios. With BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" the product also
// writes a V8 CPU profile when it stops.
import { callJson } from './http.js'
import { type Figures, type LoadOptions, loadRound } from './load.js'
import { cpuSplit, sampleRss } from './processes.js'
import {
  APPS,
  basic,
  createWorkspace,
  messageTemplate,
  mobileBlock,
  postBody,
  startCeiling,
  startProduct,
} from './product.js'

const ROUNDS = Number(process.env.ROUNDS ?? 2)
const SECS = Number(process.env.SECS ?? 5)
const SCENARIO = process.env.SCENARIO ?? 'messages'
const ws = createWorkspace()
const auth = basic(APPS.main.key, APPS.main.secret)
const show = (name: string, f: Figures) =>
  `${name}: rps ${f.rps.toFixed(0)} p50 ${f.p50.toFixed(2)} p99 ${f.p99.toFixed(2)} non2xx ${f.non2xx} cpu/req ${f.cpuUs.toFixed(1)} µs`

let ceiling: Figures | undefined
if (process.env.CEILING) {
  const server = await startCeiling(ws)
  for (let i = 0; i < ROUNDS; i++) {
    const f = await loadRound({
      url: server.url,
      pid: server.child.pid,
      method: 'POST',
      path: '/post',
      headers: { authorization: auth },
      body: postBody,
      durationSeconds: SECS,
    })
    console.log(show('ceiling (b)', f))
    if (!ceiling || f.rps > ceiling.rps) ceiling = f
  }
  await server.stop()
}

const server = await startProduct(ws)
const pid = server.child.pid!
async function options(): Promise<LoadOptions> {
  const base = { url: server.url, pid, headers: { authorization: auth }, durationSeconds: SECS }
  if (SCENARIO === 'account') return { ...base, path: '/v1/accounts/app' }
  if (SCENARIO === 'push') {
    const device = await callJson(`${server.url}/_sandbox/push/devices`, 'POST', auth, {
      platform: 'android',
    })
    const id = (device.body as { registration_id: string }).registration_id
    const body = { platform: 'all', audience: { registration_id: [id] }, notification: { alert: 'bench' } }
    return { ...base, method: 'POST', path: '/v3/push', body: JSON.stringify(body) }
  }
  return {
    ...base,
    method: 'POST',
    path: '/v1/messages',
    body: { template: messageTemplate, start: mobileBlock() },
  }
}
for (let i = 0; i < ROUNDS; i++) {
  const before = cpuSplit(pid)
  const rss = sampleRss(pid)
  const f = await loadRound(await options())
  const ratio = ceiling
    ? ` | ${(f.rps / ceiling.rps).toFixed(2)} × (b) req/s, CPU/req ×${(f.cpuUs / ceiling.cpuUs).toFixed(2)}`
    : ''
  const after = cpuSplit(pid)
  const maxRss = rss.stop()
  const requests = f.rps * SECS
  const split = ` (user ${(((after.user - before.user) / requests) * 1e6).toFixed(0)}, system ${(((after.system - before.system) / requests) * 1e6).toFixed(0)})`
  console.log(`${show(SCENARIO, f)}${split}, RSS ${maxRss.toFixed(0)} MiB${ratio}`)
}
await server.stop()
