import { spawnSync } from 'node:child_process'
import { runAutocannon } from './autocannon.js'
import type { LoadOptions, RawRound } from './load-types.js'
import { cpuSeconds, waitIdle } from './processes.js'
import { runWrk } from './wrk.js'

export type { BodyTemplate, LoadOptions, RawRound } from './load-types.js'

export interface Figures {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** CPU time (user + system) the server spent per answered request, in µs. */
  cpuUs: number
}

export type Generator = 'wrk' | 'autocannon'

let chosen: { generator: Generator; why: string } | undefined

/**
 * wrk (C, its own process) when it is on the PATH, else autocannon in a child process: either
 * way the load never runs on the server's event loop, nor on the bench's. BENCH_LOAD=autocannon
 * forces the fallback.
 */
export function generator(): { generator: Generator; why: string } {
  if (chosen) return chosen
  const forced = process.env.BENCH_LOAD
  if (forced === 'autocannon') chosen = { generator: 'autocannon', why: 'BENCH_LOAD=autocannon' }
  else if (spawnSync('wrk', ['--version']).error === undefined)
    chosen = { generator: 'wrk', why: 'wrk found on the PATH' }
  else
    chosen = {
      generator: 'autocannon',
      why: 'wrk not found (apt-get install wrk), falling back to autocannon in a child process',
    }
  return chosen
}

/** One bounded round of load from another process over loopback. */
export async function loadRound(o: LoadOptions): Promise<Figures> {
  const cpuBefore = o.pid === undefined ? Number.NaN : cpuSeconds(o.pid)
  const raw = generator().generator === 'wrk' ? await runWrk(o) : await runAutocannon(o)
  if (o.settle && o.pid !== undefined) await waitIdle(o.pid)
  const ok = raw.requests - raw.non2xx
  return {
    rps: ok / raw.seconds,
    p50: raw.p50,
    p99: raw.p99,
    non2xx: raw.non2xx,
    errors: raw.errors,
    cpuUs: o.pid === undefined ? Number.NaN : ((cpuSeconds(o.pid) - cpuBefore) / ok) * 1e6,
  }
}

/** The median of each figure over rounds, and the rounds themselves. */
export function summarize(all: Figures[]): Figures & { rounds: Figures[] } {
  const med = (pick: (f: Figures) => number) => median(all.map(pick))
  return {
    rps: med(f => f.rps),
    p50: med(f => f.p50),
    p99: med(f => f.p99),
    cpuUs: med(f => f.cpuUs),
    non2xx: all.reduce((n, f) => n + f.non2xx, 0),
    errors: all.reduce((n, f) => n + f.errors, 0),
    rounds: all,
  }
}

/** Several rounds of one scenario; each figure is the median of the rounds. */
export async function loadRounds(o: LoadOptions, rounds: number): Promise<Figures & { rounds: Figures[] }> {
  const all: Figures[] = []
  for (let i = 0; i < rounds; i++) all.push(await loadRound(o))
  return summarize(all)
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
