import autocannon from 'autocannon'
import { cpuSeconds } from './processes.js'

export interface LoadOptions {
  url: string
  method?: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  /** A fresh body for every request (e.g. a new mobile each time), or a fixed one. */
  body?: string | (() => string)
  connections?: number
  durationSeconds?: number
  /** Stop after this many requests instead of after the duration. */
  amount?: number
  /** The server's pid: its CPU time per request is measured too. */
  pid?: number
}

export interface Figures {
  rps: number
  p50: number
  p99: number
  non2xx: number
  errors: number
  /** CPU time (user + system) the server spent per answered request, in µs. */
  cpuUs: number
}

/** One bounded round of load from this process (the server is another process) over loopback. */
export async function loadRound(o: LoadOptions): Promise<Figures> {
  const body = o.body
  const cpuBefore = o.pid === undefined ? Number.NaN : cpuSeconds(o.pid)
  const result = await autocannon({
    url: o.url,
    connections: o.connections ?? 50,
    ...(o.amount === undefined ? { duration: o.durationSeconds ?? 5 } : { amount: o.amount }),
    requests: [
      {
        method: o.method ?? 'GET',
        path: o.path,
        headers: { 'content-type': 'application/json', ...o.headers },
        ...(typeof body === 'function'
          ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: body() }) }
          : body === undefined
            ? {}
            : { body }),
      },
    ],
  })
  return {
    rps: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuUs: o.pid === undefined ? Number.NaN : ((cpuSeconds(o.pid) - cpuBefore) / result['2xx']) * 1e6,
  }
}

/** Several rounds; each figure is the median of the rounds. */
export async function loadRounds(o: LoadOptions, rounds: number): Promise<Figures & { rounds: Figures[] }> {
  const all: Figures[] = []
  for (let i = 0; i < rounds; i++) all.push(await loadRound(o))
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

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
