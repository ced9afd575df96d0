import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** The sandbox as a real process (src/server.ts through tsx), on a database file the test owns. */
export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote to stdout so far (pino JSON lines). */
  output(): string
  kill(signal?: NodeJS.Signals): Promise<void>
}

const dirs: string[] = []
const children: ChildProcess[] = []

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

export function tempDatabase(): string {
  const dir = mkdtempSync(join(tmpdir(), 'jiguang-reliability-'))
  dirs.push(dir)
  return join(dir, 'sandbox.db')
}

/**
 * Starts the server and resolves once it has logged the URL it listens on (PORT=0: any free port).
 * `preload`: modules the process imports first (test fixtures that reach inside it).
 */
export function startServer(
  env: Record<string, string>,
  { preload = [] as string[] } = {},
): Promise<ServerProcess> {
  const imports = ['tsx', ...preload].flatMap(m => ['--import', m])
  const child = spawn(process.execPath, [...imports, 'src/server.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8')
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', chunk => {
    err += chunk
  })
  const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), 15_000)
    const early = (code: number | null) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`))
    }
    child.once('exit', early)
    child.stdout!.on('data', chunk => {
      out += chunk
      const url = /"url":"(http:\/\/[^"]+)"/.exec(out)?.[1]
      if (!url) return
      clearTimeout(timer)
      child.off('exit', early)
      resolve({
        url,
        child,
        output: () => out,
        kill: async (signal = 'SIGKILL') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          await exited
        },
      })
    })
  })
}
