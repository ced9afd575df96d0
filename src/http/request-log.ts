import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { LogController } from 'fastify'
import pino, { type Bindings, type ChildLoggerOptions } from 'pino'
import { type InfoLine, infoLineOf } from '../log/logger.js'

/** A token in the query string (GET /_sandbox/events?token=…) opens a stream: never logged. */
export function redactUrl(url: string): string {
  return url.includes('token=') ? url.replace(/([?&]token=)[^&#]*/g, '$1[redacted]') : url
}

/**
 * One log line per request, when it completes, with the method, url, status and time (Fastify's
 * default writes two: "incoming request" and "request completed"). At the default level the log
 * is one of the largest per-request costs (docs/performance.md), and the first line says nothing
 * the second cannot. Headers, so the Authorization header, are never part of it, nor a token.
 * A refused request's line also carries its code and the reason the sandbox refused it (an armed
 * fault, a limit, a review: errors.ts), so an injected 500 reads as an `info` line naming its fault.
 *
 * The line of an answered request is written as text by the logger's own line writer (log/logger.ts),
 * through the request's logger bindings (its reqId), without making the request's child logger.
 * A failed request's line goes through pino, like every other line.
 */
export class OneLineRequestLog extends LogController {
  /** Told of every answered request as well (the metrics, wired by app.ts). */
  observer: ((request: FastifyRequest, reply: FastifyReply) => void) | undefined

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    this.observer?.(request, reply)
    const log = reply.log
    if (!error && isUiRead(request, reply)) {
      // The web UI reads its lists again at every event: a person running the sandbox wants to
      // see the requests of the application under test at `info`, not the page's own.
      if (enabled(log, 'debug'))
        log.debug(
          {
            req: { method: request.method, url: redactUrl(request.url) },
            res: { statusCode: reply.statusCode },
            responseTime: reply.elapsedTime,
          },
          'request completed',
        )
      return
    }
    const refusal = request.refusal
    if (!error && log instanceof RequestLogger && log.line) {
      const refused = refusal
        ? `,"code":${refusal.code},"reason":${JSON.stringify(refusal.reason ?? refusal.message)}`
        : ''
      log.line(
        `${log.bindingsText},"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(redactUrl(request.url))}},` +
          `"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime}${refused}`,
        'request completed',
      )
      return
    }
    const line = {
      req: { method: request.method, url: redactUrl(request.url) },
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
      ...(refusal ? { code: refusal.code, reason: refusal.reason ?? refusal.message } : {}),
    }
    if (error) log.error({ ...line, err: error }, 'request errored')
    else log.info(line, 'request completed')
  }
}

/** A read the web UI made: its page and files, and the control plane's answers to its GETs. */
function isUiRead(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.method !== 'GET' || reply.statusCode >= 400) return false
  if (request.url.startsWith(UI_PATH)) return true
  // The page's own requests carry it as their Referer (same origin: the browser's default policy).
  return request.headers.referer?.includes(UI_PATH) === true
}
const UI_PATH = '/_sandbox/ui/'

const enabled = (log: FastifyBaseLogger, level: Level) =>
  (pino.levels.values[log.level] ?? Number.POSITIVE_INFINITY) <= (pino.levels.values[level] ?? 0)

type Level = 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal' | 'silent'
const call = (log: FastifyBaseLogger, level: Level, args: unknown[]) =>
  (log[level] as (...a: unknown[]) => void).apply(log, args)

/**
 * Fastify's logger of one request (`req.log`), made only when something logs through it: most
 * requests log nothing but their one line, and a pino child per request cost ≈ 0.6 µs.
 */
class RequestLogger {
  private made?: FastifyBaseLogger
  /** The root logger's line writer, when the request's line can be written as text. */
  readonly line: InfoLine | undefined
  readonly bindingsText: string

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {
    // Options of its own (a route's log level, serializers) would change the line: pino writes it.
    this.line = Object.keys(options).length === 0 ? infoLineOf(parent) : undefined
    this.bindingsText = Object.entries(bindings)
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      .join(',')
  }

  private get real(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options)
    return this.made
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level
  }
  set level(level: string) {
    this.real.level = level
  }
  // Methods, not per-instance closures: an instance per request allocates nothing else.
  info(...args: unknown[]): void {
    call(this.real, 'info', args)
  }
  error(...args: unknown[]): void {
    call(this.real, 'error', args)
  }
  warn(...args: unknown[]): void {
    call(this.real, 'warn', args)
  }
  debug(...args: unknown[]): void {
    call(this.real, 'debug', args)
  }
  trace(...args: unknown[]): void {
    call(this.real, 'trace', args)
  }
  fatal(...args: unknown[]): void {
    call(this.real, 'fatal', args)
  }
  silent(...args: unknown[]): void {
    call(this.real, 'silent', args)
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options)
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, made on first use. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger
}
