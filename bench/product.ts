import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../src/seed/fixtures.js'
import { type Server, startServer } from './processes.js'

export const basic = (key: string, secret: string) =>
  `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`

/** The default app, plus one app each for the big push registry and the schedule storm. */
export const APPS = {
  main: { key: DEFAULT_APP_KEY, secret: DEFAULT_MASTER_SECRET },
  devices: { key: 'benchdevices000000000001', secret: 'benchdevicessecret000001' },
  schedules: { key: 'benchschedules0000000001', secret: 'benchschedulessecret0001' },
} as const

const BIG = 1_000_000_000_000
// Balances big enough for millions of sends; generous rate limits for the push groups (a setting
// the push API reads per app, if it reads one by this name: otherwise the bench reports the 429s).
export const seedApp = (a: { key: string; secret: string }) => ({
  app_key: a.key,
  master_secret: a.secret,
  balances: { balance: BIG, voice: BIG, industry: BIG, market: BIG },
  settings: { rate_limits: { push: 1e9, device: 1e9, report: 1e9 }, broadcasts_per_day: 1e6 },
})

export interface Workspace {
  dir: string
  database: string
  seed: string
}

export function createWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'jiguang-bench-'))
  const seed = join(dir, 'seed.json')
  writeFileSync(seed, JSON.stringify({ apps: Object.values(APPS).map(seedApp) }))
  return { dir, database: join(dir, 'sandbox.db'), seed }
}

export interface ProductOptions {
  port?: number
  logName?: string
  /** Another database file (a fresh one for the start figures). */
  database?: string
  /** Without the seed file: the product as `docker run` starts it. */
  seed?: boolean
  /** Another build of the product (a worktree of an older commit, built). */
  script?: string
  /** More settings of the product (JOURNAL_MAX_PER_APP=0: without the request journal). */
  env?: Record<string, string>
}

/**
 * The product as users run it: the built server (dist/server.js), a database file with
 * persistence on, the default log level (info) written to a file instead of a terminal.
 */
export function startProduct(
  ws: Workspace,
  {
    port = 0,
    logName = 'server.log',
    database = ws.database,
    seed = true,
    script = process.env.BENCH_SERVER ?? 'dist/server.js',
    env = {},
  }: ProductOptions = {},
): Promise<Server> {
  // BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" profiles the product under the bench's load;
  // BENCH_SERVER=/tmp/old/dist/server.js measures another build (a worktree of an older commit).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  return startServer(
    [...nodeArgs, script],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_PATH: database,
      ...(seed ? { SANDBOX_CONFIG: ws.seed } : {}),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      ...env,
    },
    join(ws.dir, logName),
  )
}

/** Bare Fastify (bench/ceiling.mjs), the ceilings' server. */
export function startCeiling(ws: Workspace, { port = 0, logName = 'ceiling.log' } = {}): Promise<Server> {
  return startServer(['bench/ceiling.mjs'], { PORT: String(port) }, join(ws.dir, logName))
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

/** A stream of distinct mainland mobiles (13 + 9 digits), so no per-mobile frequency limit trips. */
export function mobiles(start = Math.floor(Math.random() * 400_000_000)): () => string {
  let n = start
  return () => `13${String(n++ % 1_000_000_000).padStart(9, '0')}`
}

// Where each round's `{{mobile}}` counter starts (load.ts): 10 million apart, more than any round
// sends, so no two rounds of a run share a mobile.
let nextBlock = 500_000_000 + Math.floor(Math.random() * 40) * 10_000_000
export const mobileBlock = () => {
  nextBlock += 10_000_000
  return nextBlock
}

/** A template SMS to a new mobile each time (load.ts expands `{{mobile}}`). */
export const messageTemplate =
  '{"mobile":"{{mobile}}","temp_id":2,"temp_para":{"order":"SO20260101000042","days":"3"}}'

// ~200 bytes, the size of a template SMS request.
export const postBody = JSON.stringify({
  mobile: '13800138000',
  temp_id: 1,
  sign_id: 1,
  tag: 'bench',
  temp_para: {
    code: '123456',
    order: 'SO20260101000042',
    name: 'Zhang San',
    days: '3',
    note: 'x'.repeat(60),
  },
})
