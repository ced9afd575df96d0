import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverBuild } from '../server-build.js'
import { afterEachTest } from '../teardown.js'

/** The sandbox as a real process (its build: test/global-setup.ts), on a database file the test owns. */
export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote to stdout so far (pino JSON lines). */
  output(): string
  /** The first pino line whose `msg` matches, once the process has written it. */
  waitForLog(msg: RegExp, timeoutMs?: number): Promise<Record<string, unknown>>
  /** Sends the signal (SIGKILL by default) and resolves with the exit code once it has exited. */
  kill(signal?: NodeJS.Signals): Promise<number | null>
}

const dirs: string[] = []
const children: ChildProcess[] = []

afterEachTest(() => {
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
 * `preload`: modules the process imports first (test fixtures that reach inside it). `uid`/`gid`:
 * run it as another user (the caller must be root). `ulimit`: bash `ulimit` options set first
 * (`-f 4096`: a file-size limit of 4 MiB).
 */
export function startServer(
  env: Record<string, string>,
  {
    preload = [] as string[],
    uid,
    gid,
    ulimit,
  }: { preload?: string[]; uid?: number; gid?: number; ulimit?: string } = {},
): Promise<ServerProcess> {
  // A preloaded fixture is TypeScript: tsx loads it (and only it).
  const imports = preload.length === 0 ? [] : ['tsx', ...preload].flatMap(m => ['--import', m])
  const args = [...imports, serverBuild().server]
  const [command, argv] = ulimit
    ? ['bash', ['-c', `ulimit ${ulimit} && exec "$0" "$@"`, process.execPath, ...args]]
    : [process.execPath, args]
  const child = spawn(command, argv, {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(uid === undefined ? {} : { uid, gid }),
  })
  children.push(child)
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8')
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', chunk => {
    err += chunk
  })
  const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)))
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
        waitForLog: (msg, timeoutMs = 15_000) => findLine(() => out, msg, timeoutMs),
        kill: async (signal = 'SIGKILL') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal)
          return exited
        },
      })
    })
  })
}

export interface Exit {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the server until it exits by itself (a start that must be refused); killed after
 * `timeoutMs`. `uid`/`gid` run it as another user (the caller must be root): the build and its
 * folder are readable by anyone, wherever the checkout lies (test/global-setup.ts).
 */
export function runToExit(
  env: Record<string, string>,
  { uid, gid, timeoutMs = 20_000 }: { uid?: number; gid?: number; timeoutMs?: number } = {},
): Promise<Exit> {
  const { folder, server } = serverBuild()
  const child = spawn(process.execPath, [server], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: folder,
    ...(uid === undefined ? {} : { uid, gid }),
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', chunk => {
    stdout += chunk
  })
  child.stderr!.on('data', chunk => {
    stderr += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  return new Promise(resolve =>
    child.once('close', code => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    }),
  )
}

// A child process is genuinely real-time: poll its output, with a generous bound.
async function findLine(
  output: () => string,
  msg: RegExp,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    // The last piece may be a line still being written.
    for (const text of output().split('\n').slice(0, -1)) {
      if (!text.startsWith('{')) continue
      const line = JSON.parse(text) as Record<string, unknown>
      if (msg.test(String(line.msg))) return line
    }
    if (Date.now() > deadline) throw new Error(`no log line ${msg} within ${timeoutMs} ms:\n${output()}`)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
}
