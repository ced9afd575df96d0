import { execFile } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import {
  cleanUp,
  consumer,
  localPrebuild,
  mcpOverStdio,
  pack,
  REPO,
  run,
  SERVED,
  servedBy,
  startInstalled,
  tempDir,
} from './packing.js'

// `npm run test:package` (CI runs it after `npm test`): the server's package installed by npm into
// an empty project, with its dependencies from the registry, then started by npx — from the packed
// tarball, and from a git URL (prepare builds it). Apart from `npm test`: npm fetches packages.

const work = tempDir('package-install-')
afterAll(() => cleanUp(work))
mkdirSync(join(work, 'prebuilds'))
const prebuild = localPrebuild(join(work, 'prebuilds'))
/** `npm install <what>`, every install script's output shown: what npm printed, stdout and stderr. */
async function npmInstall(what: string, project: string): Promise<string> {
  const args = ['install', what, '--no-audit', '--no-fund', '--prefer-offline', '--foreground-scripts']
  const { stdout, stderr } = await promisify(execFile)('npm', args, {
    cwd: project,
    env: prebuild.env,
    timeout: 600_000,
    maxBuffer: 64 << 20,
  })
  return `${stdout}\n${stderr}`
}

/** The install scripts npm ran, as it announces each: `> name@version script`. */
const scriptsRun = (output: string) =>
  [...output.matchAll(/^> (\S+)@\S+ (\w+)$/gm)].map(m => `${m[1]} ${m[2]}`)

/** The project's own view of the installed package: what `import` finds. */
async function clientImports(project: string): Promise<string> {
  return (
    await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const c = await import('jiguang-sandbox/client'); console.log(typeof c.createApp)",
      ],
      project,
    )
  ).trim()
}

describe('the packed tarball, installed into an empty project', () => {
  it('npx jiguang-sandbox serves the API, the web UI and the docs page', { timeout: 600_000 }, async () => {
    const { file } = await pack(work)
    const project = consumer(join(work, 'from-tarball'), prebuild.version)
    const output = await npmInstall(file, project)
    // Only better-sqlite3's own script runs (its binary): no telemetry (swagger-ui-dist's @scarf/scarf
    // is not a dependency: its files are copied into dist/), and no dependency says it wants
    // another Node.js than this one (test/dependencies.test.ts holds every supported major).
    expect(scriptsRun(output)).toEqual(['better-sqlite3 install'])
    expect(existsSync(join(project, 'node_modules', '@scarf'))).toBe(false)
    expect(existsSync(join(project, 'node_modules', 'swagger-ui-dist'))).toBe(false)
    expect(output).not.toContain('EBADENGINE')
    expect(await run('npx', ['--offline', 'jiguang-sandbox', '--version'], project)).toBe(
      `${SERVED.version}\n`,
    )
    expect(await clientImports(project)).toBe('function')
    const server = await startInstalled(project)
    try {
      expect(await servedBy(server.url)).toEqual(SERVED)
    } finally {
      await server.stop()
    }
    // The MCP server for agents, over stdio: the SDK and the files it serves are in the package.
    expect(await mcpOverStdio(project)).toEqual({
      server: 'jiguang-sandbox',
      llms: '# jiguang-sandbox',
      exit: 0,
    })
  })
})

describe('a git URL, installed into an empty project', () => {
  it('is built by its prepare script, then serves like the tarball', { timeout: 900_000 }, async () => {
    // The repository as a git host holds it: a bare clone, at the commit under test.
    const bare = join(work, 'jiguang-sandbox.git')
    await run('git', ['clone', '--bare', '--quiet', REPO, bare], work)
    const commit = (await run('git', ['rev-parse', 'HEAD'], REPO)).trim()
    const project = consumer(join(work, 'from-git'), prebuild.version)
    await npmInstall(`git+file://${bare}#${commit}`, project)
    const installed = join(project, 'node_modules', 'jiguang-sandbox')
    for (const built of ['dist/server.js', 'client/dist/index.js', 'client/dist/index.d.ts'])
      expect(existsSync(join(installed, built)), built).toBe(true)
    // Packed as the tarball is: no sources, no dev dependencies.
    expect(existsSync(join(installed, 'src', 'app.ts'))).toBe(false)
    expect(existsSync(join(project, 'node_modules', 'vitest'))).toBe(false)
    expect(await clientImports(project)).toBe('function')
    const server = await startInstalled(project)
    try {
      expect(await servedBy(server.url)).toEqual(SERVED)
    } finally {
      await server.stop()
    }
  })
})
