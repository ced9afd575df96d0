import { setFlagsFromString } from 'node:v8'

/**
 * V8's heap sizing for a long-running server that mostly idles between bursts, set from inside
 * the process so that `docker run`, `npm start` and `node dist/server.js` all get it (a
 * command-line flag would hold only where someone remembers to pass it). Both flags are read by
 * V8 each time it sizes a space, so setting them at run time takes effect from the next GC; they
 * change how much memory V8 keeps, never what the program does. Measured in docs/performance.md
 * (round 3).
 *
 * - The old generation is collected once it has grown by 40 % over what survived the last full
 *   GC. V8's own factor goes up to 4× when collecting is cheap: under a send load it let 25 MiB of
 *   live objects take 85 MiB of old space (RSS 163–215 MiB); at 40 % it holds about 35 MiB
 *   (RSS 145–151 MiB) for about 4 % more CPU per send: the extra full collections.
 * - The young generation does not grow while the process starts: the start allocates enough,
 *   with enough surviving, for V8 to double its semi-spaces up to 16 MiB, which it then keeps
 *   until its memory reducer runs 10–40 s later (≈ 30 MiB of an idle RSS of ≈ 100 MiB). Growth
 *   is allowed again once the server listens (`startupDone`), so under load the young generation
 *   still grows to its usual size: a small one costs 8–15 % more CPU per send.
 * - No optimized (TurboFan) or baseline (Sparkplug) code is compiled while the process starts: the
 *   start runs most of its code once (module bodies, route registration), and V8 compiled the
 *   hotter parts of it on background threads for nothing, ≈ 15 % of the CPU to the first 200
 *   (docs/performance.md, "Fast start"). Both come back with `startupDone`; functions that are hot
 *   then are optimized as they would have been (V8 reads both flags at each tiering decision).
 *
 * Setting any flag makes V8 refuse node's code cache for the built-in modules loaded afterwards:
 * the entry loads the ones the start needs before this module runs (process/builtins.ts).
 */
const OLD_GENERATION_GROWTH = '--heap-growing-percent=40'

setFlagsFromString(OLD_GENERATION_GROWTH)
setFlagsFromString('--semi-space-growth-factor=1')
// Flags V8 reads at run time (above): changing them changes how fast code runs, never what it does.
setFlagsFromString('--no-opt')
setFlagsFromString('--no-sparkplug')

/**
 * The start is over: the young generation may grow again with the load (V8's default factor), and
 * hot code is compiled again (the server listens, or `mcp` has connected to its agent).
 */
export function startupDone(): void {
  setFlagsFromString('--semi-space-growth-factor=2')
  setFlagsFromString('--opt')
  setFlagsFromString('--sparkplug')
}
