import type { Logger } from 'pino'

/**
 * The process's last resort against an exception nothing caught: an 'error' event emitted with no
 * listener (Node throws it), or a promise rejection nobody handled (Node raises it the same way).
 *
 * Every emitter the sandbox owns has its own 'error' listener (docs/reliability.md lists them);
 * this is for the one nobody foresaw. Node's default ends the process, and with it the sandbox of
 * every tenant and every CI job pointed at it, for what is almost always one request's or one
 * connection's failure. The state that matters cannot be half-written by such a throw: each write
 * is a SQLite transaction, committed and synced before its answer leaves (store/engine/writer.ts).
 *
 * So the sandbox keeps serving, and says so as loudly as it can: a `fatal` line with the stack,
 * where it came from and how many there have been, asking for a report. A real bug stays visible:
 * the tests build the app without this guard (vitest fails on any uncaught error), and a process
 * test checks that the line is written.
 */
export function keepServingOnUncaught(logger: Logger): void {
  let count = 0
  process.on('uncaughtException', (err, origin) => {
    count++
    logger.fatal(
      { err, origin, uncaught: count },
      'uncaught exception: a bug in jiguang-sandbox, please report it with this line; still serving',
    )
  })
}
