import { execFileSync } from 'node:child_process'

const MINUTE = 60_000

/** Runs a command; its output is returned (or shown, with `show`). Throws on failure or timeout. */
export function sh(
  cmd: string,
  args: string[],
  options: { timeoutMs?: number; show?: boolean; env?: NodeJS.ProcessEnv } = {},
): string {
  const out = execFileSync(cmd, args, {
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 2 * MINUTE,
    killSignal: 'SIGKILL',
    stdio: ['ignore', options.show ? 'inherit' : 'pipe', 'inherit'],
    env: { ...process.env, ...options.env },
  })
  return (out ?? '').trim()
}

/** Like sh, but never throws: for clean-up. */
export function trySh(cmd: string, args: string[]): void {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 2 * MINUTE, killSignal: 'SIGKILL' })
  } catch {
    // already gone
  }
}

export function commandExists(cmd: string, args = ['--version']): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 30_000 })
    return true
  } catch {
    return false
  }
}

/** Polls `probe` until it returns a value; throws with `what` after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = MINUTE,
): Promise<T> {
  const deadline = performance.now() + timeoutMs
  let last: unknown
  while (performance.now() < deadline) {
    try {
      const value = await probe()
      if (value !== undefined) return value
    } catch (err) {
      last = err
    }
    await new Promise(resolve => setTimeout(resolve, 250))
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
}

export function step(text: string): void {
  console.log(`\n== ${text}`)
}

export function check(condition: unknown, what: string): void {
  if (!condition) throw new Error(`check failed: ${what}`)
  console.log(`   ok  ${what}`)
}
