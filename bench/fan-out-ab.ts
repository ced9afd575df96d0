// The tag push of issue 32 point 4 alone, builds side by side: a filled database (bench/shared-instance.ts)
// is written once into FILL_CACHE (kept between runs), then each round copies it for each build
// (BUILDS: comma-separated server scripts, default this worktree's dist/server.js and BENCH_BASE),
// starts it, and runs bigTagPush: the answer, the fan-out, the other tenants' p99 all through it.
// SCALE (0.1), ROUNDS (2), CHUNK_S (2).
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createWorkspace, startProduct } from './product.js'
import { bigTagPush, fill, OPERATOR_ENV, seedOthers, sizeAt } from './shared-instance.js'

const SCALE = Number(process.env.SCALE ?? 0.1)
const ROUNDS = Number(process.env.ROUNDS ?? 2)
const CHUNK_S = Number(process.env.CHUNK_S ?? 2)
const CACHE = process.env.FILL_CACHE ?? '/tmp/fan-out-ab-cache'
// A build may carry its own environment: `script?FANOUT_POLL=storage` (the bench's poll, an A/B of the bench).
const BUILDS = (process.env.BUILDS ?? `dist/server.js,${process.env.BENCH_BASE ?? ''}`)
  .split(',')
  .filter(Boolean)

const cached = join(CACHE, `scale-${SCALE}`)
if (!existsSync(join(cached, 'sandbox.db'))) {
  const ws = createWorkspace()
  seedOthers(ws)
  console.log(`filling SCALE=${SCALE} …`)
  console.log(await fill(ws, sizeAt(SCALE)))
  mkdirSync(cached, { recursive: true })
  for (const f of ['sandbox.db', 'seed.json']) copyFileSync(join(ws.dir, f), join(cached, f))
  rmSync(ws.dir, { recursive: true, force: true })
}
const size = sizeAt(SCALE)
for (let round = 0; round < ROUNDS; round++)
  for (const script of round % 2 === 0 ? BUILDS : [...BUILDS].reverse()) {
    const ws = createWorkspace()
    for (const f of ['sandbox.db', 'seed.json']) copyFileSync(join(cached, f), join(ws.dir, f))
    const [path, query] = script.split('?')
    const extra = Object.fromEntries(new URLSearchParams(query ?? ''))
    Object.assign(process.env, { FANOUT_POLL: extra.FANOUT_POLL ?? '' })
    const s = await startProduct(ws, {
      script: path!,
      env: { ...OPERATOR_ENV, ...extra },
      logName: 'full.log',
    })
    const load0 = loadavg()[0]!.toFixed(1)
    try {
      const r = await bigTagPush(s, size.bigApp, CHUNK_S)
      console.log(
        JSON.stringify({
          round,
          script,
          load: `${load0}–${loadavg()[0]!.toFixed(1)}`,
          answeredMs: Math.round(r.answeredMs),
          fannedS: +(r.fannedMs / 1000).toFixed(1),
          cpuS: +(r.cpuMs / 1000).toFixed(1),
          delivered: r.delivered,
          p99Before: Math.round(r.othersP99Before),
          p99During: Math.round(r.othersP99),
          p99DuringMedian: Math.round(r.othersP99Median),
          rounds: r.othersRounds,
          refused: r.othersRefused,
        }),
      )
    } finally {
      await s.stop()
      if (!process.env.BENCH_KEEP) rmSync(ws.dir, { recursive: true, force: true })
    }
  }
