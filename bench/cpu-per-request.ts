// `npx tsx bench/cpu-per-request.ts`: POST /v1/messages rounds with the CPU time the product spent
// per request (from /proc), a figure far less noisy than req/s on a shared machine. With
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" it also writes a V8 CPU profile.
import { loadRound } from './load.js'
import { cpuSeconds } from './processes.js'
import { APPS, basic, createWorkspace, mobiles, startProduct } from './product.js'

const ws = createWorkspace()
const server = await startProduct(ws)
const next = mobiles()
const auth = basic(APPS.main.key, APPS.main.secret)
for (let i = 0; i < Number(process.env.ROUNDS ?? 2); i++) {
  const c0 = cpuSeconds(server.child.pid!)
  const f = await loadRound({
    url: server.url,
    method: 'POST',
    path: '/v1/messages',
    headers: { authorization: auth },
    body: () =>
      JSON.stringify({ mobile: next(), temp_id: 2, temp_para: { order: 'SO20260101000042', days: '3' } }),
    durationSeconds: Number(process.env.SECS ?? 5),
  })
  const cpu = cpuSeconds(server.child.pid!) - c0
  console.log(
    `rps ${f.rps.toFixed(0)} p50 ${f.p50} p99 ${f.p99} non2xx ${f.non2xx} cpu/req ${((cpu / (f.rps * Number(process.env.SECS ?? 5))) * 1e6).toFixed(0)} µs`,
  )
}
await server.stop()
