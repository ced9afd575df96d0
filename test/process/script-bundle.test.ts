import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

// The sandbox's script and its V8 code cache (src/process/script-bundle.ts), each load in a process
// of its own as each start is (in one process V8 would find the script in its own memory): the
// first load compiles and writes the cache, the next ones read it, a cache V8 refuses is replaced,
// and a folder that cannot be written changes nothing but the saving.

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const NAME = 'sandbox-0123456789abcdef'
const loader = pathToFileURL(join(import.meta.dirname, '../../src/process/script-bundle.ts')).href

/** A folder with a script like the build's: a CommonJS body using what the loader passes it. */
function scriptIn(factor = 2): string {
  const dir = join(tmpdir(), `script-bundle-${process.pid}-${dirs.length}-${Date.now()}`)
  mkdirSync(dir, { recursive: true })
  dirs.push(dir)
  writeScript(dir, factor)
  return dir
}

function writeScript(dir: string, factor: number): void {
  writeFileSync(
    join(dir, `${NAME}.cjs`),
    [
      "const { basename } = require('node:path')",
      `function times(n) { return ${factor} * n }`,
      'module.exports = { times, url: __bundleUrl, name: basename(__filename),',
      '  strict: (function () { return this })() === undefined }',
    ].join('\n'),
  )
}

interface Load {
  cached: boolean
  times: number
  url: string
  name: string
  strict: boolean
}

/** One start: load the script, call it, save the cache, as server.ts does. */
function load(dir: string): Load {
  const child = [
    `import { loadScriptBundle } from ${JSON.stringify(loader)}`,
    `const s = loadScriptBundle(${JSON.stringify(join(dir, `${NAME}.cjs`))})`,
    's.saveCache()',
    'console.log(JSON.stringify({ cached: s.cached, times: s.exports.times(21), url: s.exports.url, name: s.exports.name, strict: s.exports.strict }))',
  ].join('\n')
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], {
    encoding: 'utf8',
  })
  return JSON.parse(out) as Load
}

const cacheDir = (dir: string) => join(dir, 'compile-cache')
const cacheFile = (dir: string) => join(cacheDir(dir), `${NAME}-${process.version}-${process.arch}.bin`)

describe('the sandbox script', () => {
  it('runs as an ES module did (strict, its own URL), from its cache after the first start', () => {
    const dir = scriptIn()
    const first = load(dir)
    expect(first).toEqual({
      cached: false,
      times: 42,
      url: pathToFileURL(join(dir, `${NAME}.cjs`)).href,
      name: `${NAME}.cjs`,
      strict: true,
    })
    expect(readdirSync(cacheDir(dir))).toEqual([`${NAME}-${process.version}-${process.arch}.bin`])
    const written = statSync(cacheFile(dir)).mtimeMs
    expect(load(dir)).toMatchObject({ cached: true, times: 42 })
    // A start served from the cache writes nothing.
    expect(statSync(cacheFile(dir)).mtimeMs).toBe(written)
  })

  it('replaces a cache V8 refuses (damaged, or for another text), compiling as without one', () => {
    const dir = scriptIn()
    load(dir)
    writeFileSync(cacheFile(dir), Buffer.alloc(readFileSync(cacheFile(dir)).length, 7))
    expect(load(dir)).toMatchObject({ cached: false, times: 42 })
    expect(load(dir)).toMatchObject({ cached: true, times: 42 })
    // Another text of another length (the build names each text apart: this is V8's own check).
    writeScript(dir, 30)
    expect(load(dir)).toMatchObject({ cached: false, times: 630 })
    expect(load(dir)).toMatchObject({ cached: true, times: 630 })
    expect(readdirSync(cacheDir(dir))).toHaveLength(1)
  })

  it('never hands V8 a cache damaged past its header, which would crash every start', () => {
    const dir = scriptIn()
    load(dir)
    // V8 checks its header only (version, flags, the source's length), not the bytes after it in
    // a release build: damaged there, the cache was deserialized as it was.
    const bytes = readFileSync(cacheFile(dir))
    for (let i = bytes.length >> 1; i < bytes.length; i++) bytes[i]! ^= 0x5a
    writeFileSync(cacheFile(dir), bytes)
    expect(load(dir)).toMatchObject({ cached: false, times: 42 })
    expect(load(dir)).toMatchObject({ cached: true, times: 42 })
    // Cut short too: never read.
    writeFileSync(cacheFile(dir), readFileSync(cacheFile(dir)).subarray(0, 16))
    expect(load(dir)).toMatchObject({ cached: false, times: 42 })
    expect(load(dir)).toMatchObject({ cached: true, times: 42 })
  })

  it('runs without a cache where none can be written', () => {
    const dir = scriptIn()
    // A file where the cache's folder would be: no folder can be made there, whoever runs this.
    writeFileSync(cacheDir(dir), '')
    expect(load(dir)).toMatchObject({ cached: false, times: 42 })
    expect(load(dir)).toMatchObject({ cached: false, times: 42 })
    expect(readdirSync(dir).sort()).toEqual(['compile-cache', `${NAME}.cjs`])
  })
})
