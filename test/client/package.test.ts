import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { cleanUp, NPM_CLI, pack, REPO as repo, run as runIn, tempDir } from '../package/packing.js'
import { listening } from './sandbox.js'

// The packages as a user's project gets them, without the network: `npm pack` (which builds:
// prepare), what the tarball holds, and the client imported by plain Node and type-checked by tsc
// from a project of its own, both from the server's package (jiguang-sandbox/client) and as the
// package of its own (jiguang-sandbox-client) installed by npm with no compiler on the PATH.
// Installing the server's package with its dependencies, from the tarball and from git:
// test/package/ (`npm run test:package`).

const work = tempDir('client-pack-')
afterAll(() => cleanUp(work))
const s = listening()
/** The server's package, packed once for the tests that read it. */
let packedOnce: ReturnType<typeof pack> | undefined
const packed = () => (packedOnce ??= pack(work))

// Asynchronous: the sandbox the consumer calls answers from this process.
const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  runIn(cmd, args, cwd, { ...process.env, ...env })

const consumerJs = `
import { createApp, SandboxError } from 'jiguang-sandbox/client'
const sb = await createApp({ baseUrl: process.env.SANDBOX, prefix: 'packed' })
const app = await sb.app()
const refused = await sb.latestCode('13800138000').catch(err => err)
console.log(JSON.stringify({
  appKey: app.app_key === sb.appKey,
  refused: refused instanceof SandboxError ? [refused.status, refused.code] : String(refused),
}))
`

const consumerTs = `
import { createApp, type App, type Message, SandboxClient, SandboxError } from 'jiguang-sandbox/client'
export async function typed(): Promise<number> {
  const sb: SandboxClient = await createApp({ baseUrl: 'http://127.0.0.1:8080' })
  const app: App = await sb.patchApp({ balances: { industry: 5 }, settings: { rate_limits: { push: 3 } } })
  const next: Message = await sb.nextMessage({ mobile: '13800138000' }, { wait: 5000 })
  // @ts-expect-error: the answers are typed, not any
  const wrong: string = app.blacklisted
  // @ts-expect-error: so are the patches
  await sb.patchApp({ blacklisted: 'yes' })
  const err = new SandboxError(400, 90020, 'x')
  return (err.code ?? 0) + next.seq + wrong.length
}
`

describe('the packages', () => {
  it('npm pack ships what the sandbox runs, and nothing else', { timeout: 300_000 }, async () => {
    const { files } = await packed()
    for (const f of [
      'LICENSE',
      'README.md',
      'package.json',
      'dist/server.js',
      'dist/THIRD-PARTY-NOTICES.txt',
      'dist/swagger-ui/swagger-ui-bundle.js',
      'dist/swagger-ui/LICENSE',
      'client/dist/index.js',
      'client/dist/index.d.ts',
      'client/dist/testcontainers.js',
      'migrations/001_init.sql',
      'src/ui/public/index.html',
      'src/ui/public/main.js',
      // What the MCP server serves agents: llms.txt and the manual's pages (docs/agents.md).
      'llms.txt',
      'docs/agents.md',
      'docs/control-plane.md',
    ])
      expect(files).toContain(f)
    // The sandbox as one script (scripts/bundle.ts); never a code cache a local start left in dist/.
    expect(files.filter(f => /^dist\/sandbox-[0-9a-f]{16}\.cjs$/.test(f))).toHaveLength(1)
    expect(files.filter(f => f.startsWith('dist/compile-cache/'))).toEqual([])
    // No sources, tests, tools, maps or dependencies: of src/, only the web UI's files, served as written.
    expect(files.filter(f => /^(test|bench|scripts|node_modules)\//.test(f))).toEqual([])
    // Of docs/, the pages only (not the screenshots).
    expect(files.filter(f => f.startsWith('docs/') && !/^docs\/[\w-]+\.md$/.test(f))).toEqual([])
    expect(files.filter(f => f.startsWith('src/') && !f.startsWith('src/ui/public/'))).toEqual([])
    expect(files.filter(f => /\.(map|tsbuildinfo)$|(?<!\.d)\.ts$/.test(f))).toEqual([])
  })

  it('jiguang-sandbox/client: importable from the packed tarball, with its types', {
    timeout: 300_000,
  }, async () => {
    const tarball = (await packed()).file
    const consumer = join(work, 'consumer')
    const installed = join(consumer, 'node_modules', 'jiguang-sandbox')
    mkdirSync(installed, { recursive: true })
    // Unpacked where npm would put it, without the server's dependencies: the client needs none.
    await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], work)
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module' }))

    writeFileSync(join(consumer, 'check.mjs'), consumerJs)
    const out = await run('node', ['check.mjs'], consumer, { SANDBOX: s.url })
    expect(JSON.parse(out)).toEqual({ appKey: true, refused: [404, 90044] })

    writeFileSync(join(consumer, 'check.ts'), consumerTs)
    const tsconfig = {
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: ['node'],
        typeRoots: [join(repo, 'node_modules', '@types')],
      },
      files: ['check.ts'],
    }
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig))
    await run('node', [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], consumer)
  })

  it('jiguang-sandbox-client installs alone by npm, offline, with no compiler on the PATH, and works', {
    timeout: 300_000,
  }, async () => {
    const { file, files } = await pack(work, 'client')
    expect(files.sort()).toEqual(
      expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']),
    )
    // Nothing native, nothing to build.
    expect(
      files.filter(f => !/^(package\.json|README\.md|LICENSE|dist\/[\w-]+\.(js|d\.ts))$/.test(f)),
    ).toEqual([])

    const project = join(work, 'alone')
    mkdirSync(project)
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'alone', private: true, type: 'module' }),
    )
    // A PATH with node alone: no g++, make or python for an install script to reach for.
    const bin = join(work, 'bin')
    mkdirSync(bin)
    symlinkSync(process.execPath, join(bin, 'node'))
    const bare = { PATH: bin, HOME: work, npm_config_cache: join(work, 'npm-cache') }
    await runIn(
      process.execPath,
      [NPM_CLI, 'install', file, '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      project,
      bare,
    )
    expect(readdirSync(join(project, 'node_modules')).filter(n => !n.startsWith('.'))).toEqual([
      'jiguang-sandbox-client',
    ])
    expect(existsSync(join(project, 'node_modules', 'jiguang-sandbox-client', 'dist', 'index.js'))).toBe(true)

    writeFileSync(
      join(project, 'check.mjs'),
      consumerJs.replace("'jiguang-sandbox/client'", "'jiguang-sandbox-client'"),
    )
    const out = await runIn(process.execPath, ['check.mjs'], project, { ...bare, SANDBOX: s.url })
    expect(JSON.parse(out)).toEqual({ appKey: true, refused: [404, 90044] })
  })
})
