import { buildApp } from '../app.js'
import { type Config, ConfigError, loadConfig } from '../config.js'
import { StartRefusal } from '../errors.js'
import { processLimit } from '../limits/process-limits.js'
import { createLogger } from '../logger.js'
import {
  DEFAULT_APP_KEY,
  DEFAULT_DEV_KEY,
  DEFAULT_DEV_SECRET,
  DEFAULT_MASTER_SECRET,
} from '../seed/fixtures.js'
import { listenAppTls } from '../tls/listener.js'
import { startupDone } from './heap.js'
import { keepServingOnUncaught } from './last-resort.js'
import { prepareGracefulClose } from './shutdown.js'
import { listenFailure } from './start-refusal.js'

// `docker stop` waits 10 s before SIGKILL: exit well before, even if a client holds on.
const FORCE_EXIT_MS = 6_000

// The process: configuration, logger, listen, graceful close. Everything else is in buildApp.
export async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
  const logger = createLogger(config.logLevel)
  warnIfDescriptorsShort(config, logger)
  const app = await buildApp(config, { logger }).catch(refuseStart)
  const graceful = prepareGracefulClose(app)
  const address = await app
    .listen({ port: config.port, host: config.host })
    .catch(err => refuseStart(listenFailure(err, config.port, config.host)))
  // From here on, a failure nobody foresaw is logged as a bug, not a reason to stop serving.
  keepServingOnUncaught(logger)
  logger.info(
    {
      url: address,
      appKey: DEFAULT_APP_KEY,
      masterSecret: DEFAULT_MASTER_SECRET,
      devKey: DEFAULT_DEV_KEY,
      devSecret: DEFAULT_DEV_SECRET,
      database: config.database,
    },
    `jiguang-sandbox listening on ${address} (default app ${DEFAULT_APP_KEY}:${DEFAULT_MASTER_SECRET})`,
  )
  const tlsPort = config.tlsPort
  if (tlsPort !== undefined) {
    // A TLS port that cannot be had refuses the start, as PORT does: serving plain HTTP only while
    // ready said 200 hid the failure from every client that needed HTTPS (issue 19).
    const { listener, names } = await listenAppTls(app, graceful, {
      port: tlsPort,
      host: config.host,
      handshakeTimeoutMs: config.tlsHandshakeTimeoutMs,
      onClientError: err => logger.debug({ err: err.message }, 'TLS handshake failed'),
    }).catch(err => {
      app.server.close()
      return refuseStart(listenFailure(err, tlsPort, config.host, 'TLS_PORT'))
    })
    logger.info(
      { tlsPort: listener.port, names, caDir: config.caDir ?? null },
      `TLS on port ${listener.port}; trust the CA from GET /_sandbox/ca.pem`,
    )
  }

  startupDone()

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    setTimeout(() => process.exit(1), FORCE_EXIT_MS).unref()
    graceful.close().then(
      () => {
        logger.info('closed')
        process.exit(0)
      },
      err => {
        logger.error({ err }, 'error while closing')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

/**
 * Connections and TLS handshakes are each a descriptor: bounds above the open-file limit would let
 * the process run out of descriptors first, and a listener out of them resets every newcomer,
 * health checks included (issue 19). Said once at start; the operator raises `ulimit -n` (or the
 * container's nofile limit) or lowers the bounds.
 */
function warnIfDescriptorsShort(config: Config, logger: ReturnType<typeof createLogger>): void {
  const limit = processLimit('Max open files')
  // The database, its -wal, the log, the listeners, callbacks on the wire: a margin for them.
  const needed = config.maxConnections + config.maxTlsHandshakes + 128
  if (limit !== undefined && needed > limit)
    logger.warn(
      {
        openFileLimit: limit,
        maxConnections: config.maxConnections,
        maxTlsHandshakes: config.maxTlsHandshakes,
      },
      `MAX_CONNECTIONS + MAX_TLS_HANDSHAKES (${needed - 128}) is above what the open-file limit (${limit}) leaves: raise ulimit -n, or lower them`,
    )
}

/** An operator's mistake (see StartRefusal): one line saying what to do, no stack. */
function refuseStart(err: unknown): never {
  if (!(err instanceof StartRefusal)) throw err
  console.error(`jiguang-sandbox cannot start: ${err.message}`)
  process.exit(1)
}
