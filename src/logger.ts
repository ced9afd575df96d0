import pino, { type DestinationStream, type Logger } from 'pino'

/**
 * Everywhere a credential could sit in a log record. Fastify's request serializer logs method,
 * URL and addresses only, but an error or a debug line may carry headers; the Basic
 * `authorization` header is the only credential the APIs take.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'err.config.headers.authorization',
  'options.headers.authorization',
]

/** JSON lines to stdout (or `destination` in tests). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    destination,
  )
}
