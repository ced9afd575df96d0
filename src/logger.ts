import pino, { type DestinationStream, type Logger } from 'pino'

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
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination ?? batchedStdout(),
  )
}

function batchedStdout(): DestinationStream {
  const out = pino.destination({ dest: 1, sync: true })
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
