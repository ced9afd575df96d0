import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../src/store/engine/db.js'
import { createStore } from '../src/store/index.js'

// `npx tsx bench/store-path.ts`: the store's own cost, without HTTP, on a database file. CPU time
// (not wall time), so that other processes on a shared machine disturb it less:
// - group-committed writes: 40 000 write jobs, 50 at a time (the bench's 50 connections), each an
//   upsert and a read inside the job, through store.write (commit + fsync of the WAL);
// - reads: 1 000 000 executions of a prepared point query outside any transaction;
// - the health monitor's check before each commit (store/engine/health.ts), 100 000 times, where it exists.
// Prints one JSON line. Runs on any commit that has store.write (docs/reliability.md compares).

const JOBS = 40_000
const dir = mkdtempSync(join(tmpdir(), 'jiguang-store-path-'))
const db = openDatabase(join(dir, 'sandbox.db'))
const store = createStore(db)
const upsert = db.prepare(
  'INSERT INTO sequences (name, value) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1',
)
const read = db.prepare<[string], { value: number }>('SELECT value FROM sequences WHERE name = ?')

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

const writeStart = process.cpuUsage()
for (let i = 0; i < JOBS; i += 50) {
  await Promise.all(
    Array.from({ length: 50 }, (_, j) =>
      store.write(() => {
        upsert.run(`k${(i + j) % 1000}`)
        return read.get(`k${(i + j) % 1000}`)
      }),
    ),
  )
}
const writeCpu = cpuSeconds(writeStart)

const readStart = process.cpuUsage()
for (let i = 0; i < 1_000_000; i++) read.get('k1')
const readCpu = cpuSeconds(readStart)

// Absent before the monitor existed: the same script then measures the starting commit.
const health = (store as { health?: { assertWritable(): void } }).health
let checkUs: number | undefined
if (health) {
  const checkStart = process.cpuUsage()
  for (let i = 0; i < 100_000; i++) health.assertWritable()
  checkUs = Math.round((cpuSeconds(checkStart) * 1e6 * 100) / 100_000) / 100
}

console.log(
  JSON.stringify({
    writeJobsPerCpuSecond: Math.round(JOBS / writeCpu),
    readNsPerStatement: Math.round((readCpu * 1e9) / 1_000_000),
    fileCheckUsPerCommit: checkUs,
  }),
)
store.close()
db.close()
rmSync(dir, { recursive: true, force: true })
