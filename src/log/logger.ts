import { writeSync } from 'node:fs'
import pino, { type DestinationStream, type Logger } from 'pino'
import { prettyDestination } from './pretty.js'

/**
 * Everywhere a credential could sit in a log record. Fastify's request serializer logs method,
 * URL and addresses only, but an error or a debug line may carry headers; the Basic
 * `authorization` header is the only credential the APIs take.
 */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'err.config.headers.authorization',
  'options.headers.authorization',
]

/**
 * JSON lines to stdout (or `destination` in tests). The lines logged during one turn of the event
 * loop are written together, synchronously, right after it: one write(2) per batch of requests
 * instead of one per request (under load the request log was one of the largest per-request costs,
 * docs/performance.md), and an idle server still shows each line at once. Pending lines are
 * written when the process exits; only a SIGKILL can lose the last turn's lines (never data).
 * `pretty`: each line made readable for a person on its way out (pretty.ts), `colour` for a terminal.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  { pretty = false, colour = false } = {},
): Logger {
  const json = destination ?? batchedStdout()
  const out = pretty ? prettyDestination(json, { colour }) : json
  const logger = pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    out,
  )
  destinations.set(logger, out)
  return logger
}

/** Writes one `info` line whose members (JSON text, without braces) carry no credential. */
export type InfoLine = (members: string, msg: string) => void

// The loggers createLogger made, with their destination; and each logger's line writer, once made.
const destinations = new WeakMap<object, DestinationStream>()
const infoLines = new WeakMap<object, InfoLine | null>()

/**
 * The line writer of a logger made by createLogger, or of one of its children (Fastify logs
 * through a child of the logger it is given), for the one line every request logs
 * (http/request-log.ts): the same JSON pino would write — level, time, the logger's bindings
 * (pid, hostname, …), the members, msg — built as text, without pino's serialisation and
 * redaction of an arbitrary object (≈ 5 µs a line, the largest per-request cost after the socket
 * write: docs/performance.md). Only for members that cannot hold a credential.
 */
export function infoLineOf(logger: object): InfoLine | undefined {
  const known = infoLines.get(logger)
  if (known !== undefined) return known ?? undefined
  // A pino child is an object whose prototype is its parent.
  let out: DestinationStream | undefined
  for (let l: object | null = logger; l !== null && !out; l = Object.getPrototypeOf(l))
    out = destinations.get(l)
  const line = out ? lineWriter(logger as Logger, out) : null
  infoLines.set(logger, line)
  return line ?? undefined
}

function lineWriter(logger: Logger, out: DestinationStream): InfoLine {
  // The text pino writes after the time: `,"pid":…,"hostname":…` and the children's bindings.
  const bindings = (logger as unknown as Record<symbol, unknown>)[pino.symbols.chindingsSym]
  const head = typeof bindings === 'string' ? bindings : ''
  return (members, msg) => {
    if (!logger.isLevelEnabled('info')) return
    out.write(`{"level":30,"time":${Date.now()}${head},${members},"msg":${JSON.stringify(msg)}}\n`)
  }
}

function batchedStdout(): DestinationStream {
  let out = stdout()
  let told = false
  // A log line must never take the sandbox down. pino's destination already turns itself into a
  // sink on EPIPE (a reader that went away); any other write error (ENOSPC with stdout redirected
  // to a full disk, EIO) it re-emits as an 'error' nobody would hear, which ends the process. Here
  // the lines that destination still holds are dropped, stderr is told once, and the next batch
  // goes to a fresh destination, so logging resumes when the disk has room again.
  function stdout() {
    const destination = pino.destination({ dest: 1, sync: true })
    destination.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') return
      out = stdout()
      if (told) return
      told = true
      try {
        writeSync(
          2,
          `jiguang-sandbox: cannot write the log to stdout (${err.code ?? err.message}); lines are dropped until it can\n`,
        )
      } catch {
        // stderr is gone too: nobody is left to tell.
      }
    })
    return destination
  }
  let pending = ''
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending === '') return
    const text = pending
    pending = ''
    out.write(text)
  }
  process.on('exit', flush)
  return {
    write(line: string) {
      pending += line
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
  }
}
