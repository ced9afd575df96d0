import * as nodeModule from 'node:module'

/**
 * Node's on-disk compile cache for the bundle (Node ≥ 22.10: `module.enableCompileCache` and
 * `module.flushCompileCache`; on Node 20 neither exists and nothing happens). Compiling the
 * bundle's ≈ 1.5 MB of JavaScript was ≈ 70 ms of CPU at every start (docs/performance.md, "Issue 32,
 * point 1, round 3"); from the cache V8 deserializes the bytecode the last start made instead.
 *
 * - Where: `dist/compile-cache/`, beside the bundle, so it goes with the build it was made from (the
 *   Docker image's is made when the image is built: Dockerfile). A folder that cannot be made or
 *   written (a read-only install, the image's unprivileged user) leaves node compiling as before:
 *   node says nothing and this module asks nothing.
 * - Never stale: node keys each entry by the file's path and checks the source's checksum and
 *   length before using it; V8 refuses a cache made by another V8 version or under other flags.
 * - Written once the start is over, before `startupDone` changes V8's flags (process/heap.ts): a
 *   cache made under other flags than the start's would be refused at every start. Node writes only
 *   the entries it had to compile; a start served from the cache writes nothing.
 */
type CompileCacheApi = {
  enableCompileCache?: (dir: string) => unknown
  flushCompileCache?: () => void
}
const api = nodeModule as CompileCacheApi
const supported = typeof api.enableCompileCache === 'function' && typeof api.flushCompileCache === 'function'

/** Called by the entry before it imports the sandbox (server.ts), with the cache's folder. */
export function enableCompileCache(dir: string): void {
  if (!supported) return
  try {
    api.enableCompileCache?.(dir)
  } catch {
    // A cache is only ever a saving: without it the bundle compiles as it did.
  }
}

/** Called when the start is over, under the start's V8 flags (heap.ts `startupDone`). */
export function flushCompileCache(): void {
  if (!supported) return
  try {
    api.flushCompileCache?.()
  } catch {
    // As above.
  }
}
