// `npm run build && npx tsx bench/fresh-database.ts`: the CPU of `openDatabase` on a database file
// that does not exist yet, 12 times each, taking turns: copied from the build's migrated file
// (dist/fresh-<digest>.db, src/store/engine/db.ts) and migrated (no such file given). Medians.
// (The first open of a process pays for loading what both ways share: left to the medians.)
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, MIGRATIONS_DIR, openDatabase } from '../src/store/engine/db.js'
import { median } from './load.js'

const RUNS = Number(process.env.RUNS ?? 12)
const dir = mkdtempSync(join(tmpdir(), 'fresh-database-'))
const cpu: Record<'copied' | 'migrated', number[]> = { copied: [], migrated: [] }
for (let i = 0; i < RUNS; i++)
  for (const way of ['copied', 'migrated'] as const) {
    const started = process.cpuUsage()
    const db =
      way === 'copied'
        ? openDatabase(join(dir, `${way}-${i}.db`))
        : openDatabase(join(dir, `${way}-${i}.db`), MIGRATIONS_DIR, join(dir, 'none'))
    const used = process.cpuUsage(started)
    cpu[way].push((used.user + used.system) / 1000)
    closeDatabase(db)
  }
rmSync(dir, { recursive: true, force: true })
for (const [way, ms] of Object.entries(cpu))
  console.log(
    `${way.padEnd(9)} cpu median ${median(ms).toFixed(1)} ms (${ms.map(v => v.toFixed(1)).join(', ')})`,
  )
