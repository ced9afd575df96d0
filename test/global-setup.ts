import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { bundleServer, copySwaggerUi } from '../scripts/bundle.js'
import { writeFreshDatabase } from '../src/store/engine/db.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the server's build for the tests that start it as a process (test/server-build.ts). */
    serverBuild: string
  }
}

const repo = fileURLToPath(new URL('..', import.meta.url))

/**
 * The server as the package ships it (the bundle of scripts/bundle.ts, built from the sources as
 * they are now), for the tests that run it as a process: started in a fraction of what tsx takes
 * to load ≈ 700 source files. It lies in a folder every user can read, with what it needs at run
 * time copied beside it (its package.json, the migrations, the web UI's files, the manual's pages
 * and llms.txt, better-sqlite3), so that a test may run it as another user (`nobody`, for the
 * file-permission refusals) wherever the checkout lies: under a folder of mode 0700, another user
 * cannot reach the checkout's files.
 * The other packages it loads on first use are links into the checkout's node_modules (the tests
 * that run it as `nobody` never reach them).
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'jiguang-build-'))
  chmodSync(dir, 0o755)
  await bundleServer(repo, join(dir, 'dist'))
  copySwaggerUi(repo, join(dir, 'dist'))
  cpSync(join(repo, 'package.json'), join(dir, 'package.json'))
  cpSync(join(repo, 'migrations'), join(dir, 'migrations'), { recursive: true })
  writeFreshDatabase(join(dir, 'dist'), join(dir, 'migrations'))
  cpSync(join(repo, 'src', 'ui', 'public'), join(dir, 'src', 'ui', 'public'), { recursive: true })
  // What agents read (the MCP server's resources, GET /llms.txt): the manual's pages and llms.txt.
  mkdirSync(join(dir, 'docs'))
  for (const page of readdirSync(join(repo, 'docs')).filter(f => f.endsWith('.md')))
    cpSync(join(repo, 'docs', page), join(dir, 'docs', page))
  for (const file of ['README.md', 'llms.txt']) cpSync(join(repo, file), join(dir, file))
  const modules = join(dir, 'node_modules')
  mkdirSync(modules)
  const copied = new Set(['better-sqlite3', 'bindings', 'file-uri-to-path'])
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    if (name.startsWith('.') || copied.has(name)) continue
    symlinkSync(join(repo, 'node_modules', name), join(modules, name))
  }
  for (const name of ['bindings', 'file-uri-to-path'])
    cpSync(join(repo, 'node_modules', name), join(modules, name), { recursive: true })
  const sqlite = join(repo, 'node_modules', 'better-sqlite3')
  for (const part of ['package.json', 'lib', join('build', 'Release', 'better_sqlite3.node')])
    cpSync(join(sqlite, part), join(modules, 'better-sqlite3', part), { recursive: true })
  project.provide('serverBuild', dir)
  return () => rmSync(dir, { recursive: true, force: true })
}
