import { copyFileSync, existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { median } from './load.js'
import { waitIdle } from './processes.js'
import { createWorkspace, startProduct } from './product.js'
import { fillRegistry, pushBroadcast } from './push-scenarios.js'
import { log } from './throughput.js'

// The broadcast part of `npm run bench` alone, optionally A/B: `npx tsx bench/broadcast.ts` runs
// this build (dist/server.js); with BASE=/tmp/old/dist/server.js the two builds take turns, each
// round on its own copy of the same registry (DEVICES devices, filled once), TIMES broadcasts each.
const DEVICES = Number(process.env.DEVICES ?? 100_000)
const ROUNDS = Number(process.env.ROUNDS ?? 2)
const TIMES = Number(process.env.TIMES ?? 3)
const builds = [
  ...(process.env.BASE ? [{ name: 'base', script: process.env.BASE }] : []),
  { name: 'this build', script: 'dist/server.js' },
]

async function main(): Promise<void> {
  const ws = createWorkspace()
  const filled = join(ws.dir, 'registry.db')
  try {
    // The seed file makes the apps at the product's first start; the registry goes in after.
    await (await startProduct(ws, { database: filled, logName: 'seed.log' })).stop()
    log(`registry: ${DEVICES} devices in ${fillRegistry(filled, DEVICES).toFixed(0)} ms`)
    const figures = new Map(builds.map(b => [b.name, { ms: [] as number[], cpuMs: [] as number[] }]))
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of builds) {
        const database = join(ws.dir, `round-${round}-${builds.indexOf(build)}.db`)
        copyFileSync(filled, database)
        if (existsSync(`${filled}-wal`)) copyFileSync(`${filled}-wal`, `${database}-wal`)
        const server = await startProduct(ws, { database, script: build.script, logName: 'broadcast.log' })
        try {
          await waitIdle(server.child.pid!)
          const f = await pushBroadcast(server.url, TIMES, server.child.pid!)
          log(`${build.name}: ${list(f.ms)} ms (CPU ${list(f.cpuMs)} ms)`)
          figures.get(build.name)!.ms.push(...f.ms)
          figures.get(build.name)!.cpuMs.push(...f.cpuMs)
        } finally {
          await server.stop()
        }
      }
    }
    for (const [name, f] of figures)
      log(`${name}: median ${median(f.ms).toFixed(0)} ms, CPU median ${median(f.cpuMs).toFixed(0)} ms`)
  } finally {
    rmSync(ws.dir, { recursive: true, force: true })
  }
}

const list = (xs: number[]) => xs.map(n => n.toFixed(0)).join(', ')

main().catch(err => {
  console.error(err)
  process.exit(1)
})
