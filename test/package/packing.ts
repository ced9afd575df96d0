import { execFile, execFileSync, spawn } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

// The package as its users get it: packed by npm, installed by npm into a folder of their own,
// run by npx. Shared by the pack tests of `npm test` (test/client/package.test.ts: no network) and
// the install tests of `npm run test:package` (this folder: they fetch dependencies).

export const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** A folder removed by `cleanUp()`. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function cleanUp(dir: string): void {
  rmSync(dir, { recursive: true, force: true })
}

export async function run(
  cmd: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = 240_000,
): Promise<string> {
  const { stdout } = await promisify(execFile)(cmd, args, {
    cwd,
    env,
    timeout: timeoutMs,
    maxBuffer: 64 << 20,
  })
  return stdout
}

/** npm itself (its CLI script), runnable with node alone: for a PATH without npm on it. */
export const NPM_CLI = realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())

export interface Packed {
  /** The tarball's path. */
  file: string
  /** The files in it, from the package's root. */
  files: string[]
}

/** `npm pack` of the package in `dir` (the repository, or a workspace of it) into `dest`. */
export async function pack(dest: string, workspace?: string): Promise<Packed> {
  const args = ['pack', '--json', '--pack-destination', dest, ...(workspace ? ['-w', workspace] : [])]
  const [packed] = JSON.parse(await run('npm', args, REPO)) as Array<{
    filename: string
    files: { path: string }[]
  }>
  return { file: join(dest, packed!.filename), files: packed!.files.map(f => f.path) }
}

/**
 * better-sqlite3's native addon as the prebuilt binary its install script looks for first
 * (prebuild-install: `<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`), made from the one
 * this checkout compiled; the environment points its install script there. A user's install
 * downloads the same file from the project's releases; here nothing compiles for minutes and
 * nothing is fetched but npm packages.
 */
export function localPrebuild(dir: string): { version: string; env: NodeJS.ProcessEnv } {
  const pkgDir = dirname(realpathSync(join(REPO, 'node_modules', 'better-sqlite3', 'package.json')))
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }
  const stage = join(dir, 'stage')
  mkdirSync(join(stage, 'build', 'Release'), { recursive: true })
  symlinkSync(
    join(pkgDir, 'build', 'Release', 'better_sqlite3.node'),
    join(stage, 'build', 'Release', 'better_sqlite3.node'),
  )
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`
  execFileSync('tar', ['-czhf', join(dir, name), '-C', stage, 'build'])
  return { version, env: { ...process.env, npm_config_better_sqlite3_local_prebuilds: dir } }
}

/** An empty project of a user's, holding better-sqlite3 at the version the prebuilt binary is. */
export function consumer(dir: string, sqliteVersion: string): string {
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      type: 'module',
      overrides: { 'better-sqlite3': sqliteVersion },
    }),
  )
  return dir
}

/**
 * The command `npx jiguang-sandbox` runs in the consumer's folder (its `node_modules/.bin` link;
 * started directly, so that a signal reaches it and not an npm in between), on a new database
 * there: resolves with its URL once it printed its start line. `stop()` ends it.
 */
export function startInstalled(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(
    join(dir, 'node_modules', '.bin', 'jiguang-sandbox'),
    ['--port', '0', '--db', join(dir, 'data', 's.db')],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LOG_FORMAT: 'json' } },
  )
  let out = ''
  child.stderr.on('data', chunk => {
    out += chunk
  })
  const exited = new Promise<void>(resolve => child.once('close', () => resolve()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line within 30 s:\n${out}`)), 30_000)
    child.once('close', code => reject(new Error(`exited ${code} before starting:\n${out}`)))
    child.stdout.on('data', chunk => {
      out += chunk
      const url = /"url":"(http:[^"]+)"/.exec(out)?.[1]
      if (!url) return
      clearTimeout(timer)
      resolve({
        url,
        stop: async () => {
          child.kill('SIGTERM')
          await exited
        },
      })
    })
  })
}

const AUTH = `Basic ${Buffer.from('7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1').toString('base64')}`

/** The API, the web UI and the docs page, each with one of its files, by status (and a check). */
export async function servedBy(url: string): Promise<Record<string, number | string>> {
  const get = async (path: string, auth = false) =>
    fetch(`${url}${path}`, { headers: auth ? { authorization: AUTH } : {} })
  const api = await get('/v1/accounts/app', true)
  const ui = await get('/_sandbox/ui/', true)
  const docs = await get('/_sandbox/docs')
  const info = (await (await get('/_sandbox/info')).json()) as { version: string }
  return {
    api: api.status,
    apiBody: Object.keys((await api.json()) as object).join(','),
    ui: ui.status,
    uiPage: (await ui.text()).includes('<title>') ? 'page' : 'no page',
    uiScript: (await get('/_sandbox/ui/main.js')).status,
    uiView: (await get('/_sandbox/ui/views/phones.js')).status,
    uiLibrary: (await get('/_sandbox/ui/vendor/preact.mjs')).status,
    docs: docs.status,
    docsScript: (await get('/_sandbox/docs/swagger-ui-bundle.js')).status,
    openapi: (await get('/_sandbox/openapi.json')).status,
    llms: (await get('/llms.txt')).status,
    mcpTools: await mcpToolCount(url),
    version: info.version,
  }
}

/** How many tools POST /_sandbox/mcp lists for the default app. */
async function mcpToolCount(url: string): Promise<number> {
  const res = await fetch(`${url}/_sandbox/mcp`, {
    method: 'POST',
    headers: {
      authorization: AUTH,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  })
  return ((await res.json()) as { result: { tools: unknown[] } }).result.tools.length
}

/**
 * `npx jiguang-sandbox mcp --embedded` in the consumer's folder, as an agent runs it: its answer to
 * `initialize`, the first line of its llms.txt resource, and its exit status once stdin closes.
 */
export function mcpOverStdio(dir: string): Promise<{ server: string; llms: string; exit: number | null }> {
  const child = spawn(
    join(dir, 'node_modules', '.bin', 'jiguang-sandbox'),
    ['mcp', '--embedded', '--port', '0'],
    {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  )
  const send = (id: number, method: string, params: object) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`)
  let out = ''
  let err = ''
  child.stderr.on('data', chunk => {
    err += chunk
  })
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within 30 s:\n${err}`)), 30_000)
    const answers: Record<number, { result: Record<string, unknown> }> = {}
    child.stdout.on('data', chunk => {
      out += chunk
      for (const line of out.split('\n').slice(0, -1)) {
        const message = JSON.parse(line) as { id: number; result: Record<string, unknown> }
        if (answers[message.id]) continue
        answers[message.id] = message
        if (message.id === 1) send(2, 'resources/read', { uri: 'jiguang-sandbox://llms.txt' })
        if (message.id === 2) child.stdin.end()
      }
    })
    child.once('close', code => {
      clearTimeout(timer)
      const server = (answers[1]?.result.serverInfo as { name?: string } | undefined)?.name ?? `none: ${err}`
      const contents = answers[2]?.result.contents as Array<{ text: string }> | undefined
      resolve({ server, llms: contents?.[0]?.text.split('\n')[0] ?? 'none', exit: code })
    })
    send(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'consumer', version: '1' },
    })
  })
}

export const SERVED = {
  api: 200,
  apiBody: 'app_balance,app_voice,app_industry,app_market',
  ui: 200,
  uiPage: 'page',
  uiScript: 200,
  uiView: 200,
  uiLibrary: 200,
  docs: 200,
  docsScript: 200,
  openapi: 200,
  llms: 200,
  mcpTools: 21,
  version: (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version,
}
