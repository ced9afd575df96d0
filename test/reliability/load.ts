import { readFileSync } from 'node:fs'
import { Agent, request } from 'undici'

// What the tests of a shared sandbox's bounds measure (issue 19): the server's resident memory, and
// how long a victim tenant's requests take while an attacker does its worst, from addresses of
// their own (loopback has many: the server tells 127.0.0.2 from 127.0.0.3).

/** The attacker's and the victim's addresses: distinct clients to the server. */
export const ATTACKER = '127.0.0.2'
export const VICTIM = '127.0.0.3'

/**
 * An undici agent whose connections come from `localAddress` (a Client's own option: undici
 * overrides a `localAddress` given under `connect` with it).
 */
export const agentFrom = (localAddress: string, connections = 8) =>
  new Agent({ localAddress, connections, pipelining: 1 })

/** Resident memory of a process, in MiB (Linux: /proc/<pid>/status). */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find(l => l.startsWith('VmRSS:'))
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024
}

/** The p-th percentile (0..1) of a list of durations. */
export function percentile(ms: readonly number[], p: number): number {
  const sorted = [...ms].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0
}

/**
 * A victim's requests, one after another, until `stop()`: each answer's status and duration.
 * `call` makes one request and resolves with its status.
 */
export function victim(call: () => Promise<number>) {
  const durations: number[] = []
  const statuses: number[] = []
  let running = true
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      statuses.push(await call())
      durations.push(performance.now() - started)
    }
  })()
  return {
    durations,
    statuses,
    async stop() {
      running = false
      await loop
      return { p50: percentile(durations, 0.5), p99: percentile(durations, 0.99), n: durations.length }
    },
  }
}

/** A GET through `agent` with Basic `auth`: its status (the body is read and dropped). */
export async function getStatus(agent: Agent, url: string, auth?: string): Promise<number> {
  const res = await request(url, { dispatcher: agent, headers: auth ? { authorization: auth } : {} })
  await res.body.dump()
  return res.statusCode
}

/** Runs `task(i)` for i in 0..n-1 with at most `concurrency` at once. */
export async function pool(
  n: number,
  concurrency: number,
  task: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, concurrency) }, async () => {
      while (next < n) await task(next++)
    }),
  )
}
