import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { listening } from './sandbox.js'

// jiguang-sandbox/client as a user's project gets it: `npm pack` (which builds, prepack), the
// tarball unpacked where npm would put it, then imported by plain Node and type-checked by tsc
// from a project of its own. The client needs none of the package's dependencies at run time, so
// none are installed here: an import of the server's code would fail.

const repo = fileURLToPath(new URL('../..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'client-pack-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))
const s = listening()

// Asynchronous: the sandbox the consumer calls answers from this process.
const run = async (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const options = { cwd, env: { ...process.env, ...env }, timeout: 240_000 }
  return (await promisify(execFile)(cmd, args, options)).stdout
}

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

describe('the package', () => {
  it('npm pack ships the client, importable as jiguang-sandbox/client, with its types', {
    timeout: 300_000,
  }, async () => {
    const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], repo))[0]
    const files: string[] = packed.files.map((f: { path: string }) => f.path)
    for (const f of [
      'dist/client/index.js',
      'dist/client/index.d.ts',
      'dist/server.js',
      'migrations/001_init.sql',
    ])
      expect(files).toContain(f)
    expect(files.filter(f => /^(src|test|bench|node_modules)\//.test(f))).toEqual([])

    const consumer = join(work, 'consumer')
    const installed = join(consumer, 'node_modules', 'jiguang-sandbox')
    mkdirSync(installed, { recursive: true })
    await run('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1'], work)
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
})
