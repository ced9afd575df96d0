import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { median } from './load.js'
import type { Server } from './processes.js'
import { cpuSeconds, rssMiB } from './processes.js'
import { APPS, basic, freePort, startCeiling, startProduct, type Workspace } from './product.js'

const mainAuth = basic(APPS.main.key, APPS.main.secret)

export interface StartFigures {
  /** Spawn to the first 200 of GET /ping, ms. */
  ceiling: number[]
  /** Spawn to the first 200 of GET /v1/accounts/app on a database file that does not exist yet. */
  product: number[]
  /** RSS of the product 2 s after its first 200, idle, fresh database, no seed file. */
  idleRss: number
  /** The same for bare Fastify. */
  ceilingIdleRss: number
}

/**
 * Process start to the first 200, `times` times each, bare Fastify and the product taking turns
 * (so both see the same machine load). The product starts as `docker run` starts it: a new
 * database file (created and migrated), no seed file.
 */
export async function startTimes(ws: Workspace, times: number): Promise<StartFigures> {
  const f: StartFigures = { ceiling: [], product: [], idleRss: Number.NaN, ceilingIdleRss: Number.NaN }
  for (let i = 0; i < times; i++) {
    const last = i === times - 1
    const ceiling = await timeToFirstOk(
      port => startCeiling(ws, { port, logName: `start-ceiling-${i}.log` }),
      '/ping',
      last,
    )
    f.ceiling.push(ceiling.ms)
    if (last) f.ceilingIdleRss = ceiling.rss
    const product = await timeToFirstOk(
      port =>
        startProduct(ws, {
          port,
          logName: `start-${i}.log`,
          database: join(ws.dir, `fresh-${i}.db`),
          seed: false,
        }),
      '/v1/accounts/app',
      last,
    )
    f.product.push(product.ms)
    if (last) f.idleRss = product.rss
  }
  return f
}

export async function timeToFirstOk(
  start: (port: number) => Promise<Server>,
  path: string,
  idle: boolean,
): Promise<{ ms: number; cpuMs: number; rss: number }> {
  const port = await freePort()
  const started = performance.now()
  const server = start(port)
  await firstOk(`http://127.0.0.1:${port}${path}`)
  const ms = performance.now() - started
  const s = await server
  // Read once the process has told its url (≤ 20 ms after the first 200, idle meanwhile): the CPU
  // of the whole start, node's own included.
  const cpuMs = cpuSeconds(s.child.pid!) * 1000
  let rss = Number.NaN
  if (idle) {
    await sleep(2000)
    rss = rssMiB(s.child.pid!)
  }
  await s.stop()
  return { ms, cpuMs, rss }
}

async function firstOk(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    try {
      const res = await request(url, { headers: { authorization: mainAuth } })
      await res.body.dump()
      if (res.statusCode === 200) return
    } catch {}
    await sleep(2)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}

export { median }
