// `npm run build && npx tsx bench/start-ratio.ts`: the start alone (docs/performance.md, "Fast
// start"): process spawn to the first 200, on a database file that does not exist yet, without a
// seed file (as `docker run` starts it), STARTS times (9) each, taking turns with bare Fastify, so
// that both see the same machine. Each start's wall time and the CPU of its process (user + system,
// node's own start included), medians and their ratio to bare Fastify's; then each one's RSS 2 s
// after its last start's first 200 (idle). BASE=<another build's server.js> takes its turn too (an
// A/B); several, comma-separated, each `name=path` or a path.
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
interface Figures {
  ms: number[]
  cpuMs: number[]
  rss: number
}
const figures = new Map<string, Figures>([
  ['bare Fastify', { ms: [], cpuMs: [], rss: Number.NaN }],
  ...builds.map(b => [b.name, { ms: [], cpuMs: [], rss: Number.NaN }] as [string, Figures]),
])
const note = (name: string, r: { ms: number; cpuMs: number; rss: number }) => {
  const f = figures.get(name)!
  f.ms.push(r.ms)
  f.cpuMs.push(r.cpuMs)
  if (!Number.isNaN(r.rss)) f.rss = r.rss
}
for (let i = 0; i < STARTS; i++) {
  const last = i === STARTS - 1
  note(
    'bare Fastify',
    await timeToFirstOk(port => startCeiling(ws, { port, logName: `c-${i}.log` }), '/ping', last),
  )
  for (const [n, b] of builds.entries()) {
    const database = join(ws.dir, `fresh-${i}-${n}.db`)
    const start = (port: number) =>
      startProduct(ws, { port, logName: `p-${i}-${n}.log`, database, seed: false, script: b.script })
    note(b.name, await timeToFirstOk(start, '/v1/accounts/app', last))
  }
}
const bare = figures.get('bare Fastify')!
const [bareMs, bareCpu] = [median(bare.ms), median(bare.cpuMs)]
for (const [name, f] of figures) {
  const [ms, cpu] = [median(f.ms), median(f.cpuMs)]
  console.log(
    `${name.padEnd(14)} wall ${ms.toFixed(0).padStart(4)} ms ${(ms / bareMs).toFixed(2)} ×` +
      `  cpu ${cpu.toFixed(0).padStart(4)} ms ${(cpu / bareCpu).toFixed(2)} ×` +
      `  idle rss ${f.rss.toFixed(1)} MiB` +
      `  (wall ${f.ms.map(v => v.toFixed(0)).join(', ')}; cpu ${f.cpuMs.map(v => v.toFixed(0)).join(', ')})`,
  )
}
