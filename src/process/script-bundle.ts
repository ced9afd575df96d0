import { isAscii } from 'node:buffer'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Script } from 'node:vm'

/**
 * The sandbox's bundle as a script compiled with a V8 code cache. Compiling the bundle's ≈ 1.5 MB
 * was ≈ 15 % of the start's CPU at every start (docs/performance.md, "Issue 32, point 1, round 3"):
 * Node 20 keeps no code cache for an ES module, and Node 22's own (`module.enableCompileCache`)
 * measured 80 ms of CPU above this one. The build writes the sandbox as a CommonJS body
 * (scripts/bundle.ts); this compiles it as one function with `vm.Script`, from the cache a start
 * left beside it when there is one; a start without one writes it once the start is over
 * (`saveCache`), so it holds the bytecode of every function the start ran.
 *
 * - Never stale: the bundle's file is named after a digest of its text (the build), the cache
 *   after the bundle's file, node's version and the architecture; V8 itself refuses a cache made
 *   by another V8, under other flags or for a source of another length (`cachedDataRejected`), and
 *   the start then compiles as without one and writes a new cache.
 * - The cache is written under the start's V8 flags (process/heap.ts: `saveCache` runs before
 *   `startupDone` changes them), the flags the next start reads it under.
 * - Written to a file of its own, then renamed: a start that reads it meanwhile finds the old cache,
 *   or none, or the whole new one. A folder that cannot be written (a read-only install, the Docker
 *   image's unprivileged user: the image's cache is made when it is built) leaves the next start
 *   compiling as this one did; nothing else changes.
 * - Checked before V8 reads it: the file is the cache's SHA-1, then the cache. V8 checks a cache's
 *   header (its version, its flags, the source's length), but a release build does not check the
 *   bytes after it (their checksum is a debug build's, `--verify-snapshot-checksum`): a cache
 *   damaged past its header (a disk's error, a copy of `dist/` that went wrong) was deserialized
 *   as it was, and node died of it at every start, before the start could replace it. A cache
 *   whose digest does not match is not given to V8, and the start writes a new one. (≈ 1 ms for
 *   the sandbox's 1.8 MB.)
 * - Beside the bundle only, never in a folder others can write (`os.tmpdir()`): a code cache is
 *   code, and whoever can write `dist/` can change the code anyway.
 */
export interface ScriptBundle<T> {
  exports: T
  /** V8 compiled the script from the cache (there was one, and V8 took it). */
  cached: boolean
  /** Writes the code cache if this start had none or V8 refused it; never throws. */
  saveCache(): void
}

export function loadScriptBundle<T>(file: string): ScriptBundle<T> {
  const bytes = readFileSync(file)
  // The build writes the script in ASCII (scripts/bundle.ts), where latin1 is the same text read
  // without UTF-8's decoding: ≈ 25 ms of CPU less for its 2 MB on Node 20.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8')
  const cacheFile = join(
    dirname(file),
    'compile-cache',
    `${basename(file, '.cjs')}-${process.version}-${process.arch}.bin`,
  )
  let cachedData: Buffer | undefined
  try {
    cachedData = checked(readFileSync(cacheFile))
  } catch {
    // No cache yet: compiled from its text, as any module is.
  }
  // The script's value is the bundle as one function, not in parentheses: V8 compiles its body
  // once, when it is called (a parenthesized function is compiled eagerly, then again). 'use
  // strict': the bundle's code is an ES module's, strict as it was.
  const script = new Script(
    `0, function (exports, require, module, __filename, __dirname, __bundleUrl) {'use strict';${source}\n}`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  )
  const body = script.runInThisContext() as (...args: unknown[]) => void
  const module = { exports: {} as T }
  body(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href)
  const fresh = cachedData === undefined || script.cachedDataRejected === true
  return {
    exports: module.exports,
    cached: !fresh,
    saveCache: () => {
      if (!fresh) return
      const partial = `${cacheFile}.${process.pid}`
      try {
        mkdirSync(dirname(cacheFile), { recursive: true })
        const cache = script.createCachedData()
        writeFileSync(partial, Buffer.concat([sha1(cache), cache]))
        renameSync(partial, cacheFile)
      } catch {
        // A cache is only ever a saving (above).
        rmPartial(partial)
      }
    },
  }
}

const DIGEST_BYTES = 20
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest()

/** The cache a file holds if its digest matches it (see above), else undefined. */
function checked(file: Buffer): Buffer | undefined {
  if (file.length <= DIGEST_BYTES) return undefined
  const cache = file.subarray(DIGEST_BYTES)
  return sha1(cache).equals(file.subarray(0, DIGEST_BYTES)) ? cache : undefined
}

function rmPartial(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Never written.
  }
}
