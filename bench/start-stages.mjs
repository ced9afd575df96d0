// `npx tsx bench/start-stages.ts` bundles the stages below the way `npm run build` bundles the
// server (scripts/bundle.ts, into dist/stages/), then runs this file on them (plain JavaScript: no
// loader in the process): where the start goes, stage by stage: wall time, CPU time and RSS after
// the configuration, the modules, a new database with its migrations, buildApp and listen; then
// V8's heap spaces, and the RSS every 5 s while idle for IDLE_S seconds (0 by default: V8 shrinks
// the young generation only when its memory reducer runs, ≈ 40 s after the last activity). The
// product's own start is timed from here, after node itself started (≈ 40 ms).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getHeapSpaceStatistics } from 'node:v8'

const started = performance.now()
const cpu0 = process.cpuUsage()
const lap = stage => {
  const used = process.cpuUsage(cpu0)
  console.log(
    `${stage.padEnd(28)} wall ${(performance.now() - started).toFixed(0).padStart(4)} ms` +
      `  cpu ${((used.user + used.system) / 1000).toFixed(0).padStart(4)} ms` +
      `  rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB`,
  )
}
const dist = module => new URL(`../dist/stages/${module}`, import.meta.url).href

lap('start')
const { loadConfig } = await import(dist('config.js'))
lap('config (zod)')
const { createLogger } = await import(dist('logger.js'))
const { openDatabase, closeDatabase } = await import(dist('db.js'))
lap('logger, store/db')
const { buildApp } = await import(dist('app.js'))
lap('the app modules')
const dir = mkdtempSync(join(tmpdir(), 'start-stages-'))
closeDatabase(openDatabase(join(dir, 'migrated.db')))
lap('new database, migrations')
const config = loadConfig({ DB_PATH: join(dir, 'sandbox.db'), PORT: '0' })
const app = await buildApp(config, { logger: createLogger('info', { write() {} }) })
lap('buildApp (new database)')
await app.listen({ port: 0, host: '127.0.0.1' })
lap('listen')
for (const s of getHeapSpaceStatistics())
  if (s.space_size > 0) console.log(`  ${s.space_name.padEnd(26)} ${(s.space_size / 2 ** 20).toFixed(1)} MiB`)
for (let t = 5; t <= Number(process.env.IDLE_S ?? 0); t += 5) {
  await new Promise(resolve => setTimeout(resolve, 5000))
  console.log(`idle ${t} s: rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(1)} MiB`)
}
await app.close()
rmSync(dir, { recursive: true, force: true })
