// `npm run build && npx tsx bench/start-ratio.ts`: the start alone (docs/performance.md, "Fast
// start"): process spawn to the first 200, on a database file that does not exist yet, without a
// seed file (as `docker run` starts it), STARTS times (9) each, taking turns with bare Fastify, so
// that both see the same machine. BASE=<another build's server.js> takes its turn too (an A/B);
// several, comma-separated, each `name=path` or a path.
import { join } from 'node:path'
import { median } from './load.js'
import { createWorkspace, startCeiling, startProduct } from './product.js'
import { timeToFirstOk } from './start.js'

const STARTS = Number(process.env.STARTS ?? 9)
const builds = [
  { name: 'this build', script: 'dist/server.js' },
  ...(process.env.BASE ?? '')
    .split(',')
    .filter(Boolean)
    .map((b, i) =>
      b.includes('=')
        ? { name: b.split('=')[0]!, script: b.split('=')[1]! }
        : { name: `BASE ${i + 1}`, script: b },
    ),
]
const ws = createWorkspace()
const times = new Map<string, number[]>([
  ['bare Fastify', []],
  ...builds.map(b => [b.name, []] as [string, number[]]),
])
for (let i = 0; i < STARTS; i++) {
  const ceiling = await timeToFirstOk(
    port => startCeiling(ws, { port, logName: `c-${i}.log` }),
    '/ping',
    false,
  )
  times.get('bare Fastify')!.push(ceiling.ms)
  for (const [n, b] of builds.entries()) {
    const database = join(ws.dir, `fresh-${i}-${n}.db`)
    const start = (port: number) =>
      startProduct(ws, { port, logName: `p-${i}-${n}.log`, database, seed: false, script: b.script })
    times.get(b.name)!.push((await timeToFirstOk(start, '/v1/accounts/app', false)).ms)
  }
}
const bare = median(times.get('bare Fastify')!)
for (const [name, ms] of times) {
  const m = median(ms)
  console.log(
    `${name.padEnd(14)} median ${m.toFixed(0).padStart(4)} ms  ${(m / bare).toFixed(2)} ×  (${ms.map(v => v.toFixed(0)).join(', ')})`,
  )
}
