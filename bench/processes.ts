import { type ChildProcess, spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'

export interface Server {
  url: string
  child: ChildProcess
  stop(): Promise<void>
}

/**
 * Starts a server process whose stdout goes to `logFile` (as a user's would go to a terminal or a
 * collector, not through this process), then waits for the JSON line that carries its `url`.
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  timeoutMs = 30_000,
): Promise<Server> {
  const out = openSync(logFile, 'w')
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', out, 'inherit'],
  })
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`)
    const url = findUrl(readFileSync(logFile, 'utf8'))
    if (url) return { url, child, stop: () => stopProcess(child) }
    await sleep(20)
  }
  child.kill('SIGKILL')
  throw new Error(`${args.join(' ')} did not log its url within ${timeoutMs} ms`)
}

function findUrl(log: string): string | undefined {
  for (const line of log.split('\n')) {
    if (!line.includes('"url"')) continue
    try {
      const url = JSON.parse(line).url
      if (typeof url === 'string') return url
    } catch {}
  }
  return undefined
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise(resolve => child.once('exit', resolve))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(timer)
}

/** Resident set size of a process in MiB (Linux /proc; `ps` elsewhere). */
export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN)
    return kb / 1024
  } catch {
    return Number.NaN
  }
}

/** Samples RSS every `everyMs` until stopped; returns the highest value seen. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let max = rssMiB(pid)
  const timer = setInterval(() => {
    max = Math.max(max, rssMiB(pid))
  }, everyMs)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(max, rssMiB(pid))
    },
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc; NaN elsewhere). */
/** CPU time (user, system) a process has used so far, in seconds. */
export function cpuSplit(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }
  } catch {
    return { user: Number.NaN, system: Number.NaN }
  }
}

export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return Number.NaN
  }
}

/**
 * Waits until a process has been idle for a moment (under 5 ms of CPU in 250 ms), at most
 * `timeoutMs`: a round must not pay for the work the previous one left behind (the reports of its
 * messages arrive REPORT_DELAY_MS later, and the scheduler stores each one).
 */
export async function waitIdle(pid: number, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  let before = cpuSeconds(pid)
  while (performance.now() < deadline) {
    await sleep(250)
    const now = cpuSeconds(pid)
    if (!(now - before > 0.005)) return
    before = now
  }
}
