import { buildApp } from '../app.js'
import { type Config, ConfigError, loadConfig } from '../config.js'
import { StartRefusal } from '../errors.js'
import { processLimit } from '../limits/process-limits.js'
import { createLogger } from '../log/logger.js'
import { VERSION } from '../package.js'
import {
  DEFAULT_APP_KEY,
  DEFAULT_DEV_KEY,
  DEFAULT_DEV_SECRET,
  DEFAULT_MASTER_SECRET,
} from '../seed/fixtures.js'
import { listenAppTls } from '../tls/listener.js'
import { parseCommandLine } from './cli.js'
import { keepServingOnUncaught } from './last-resort.js'
import { listenMetrics } from './metrics-port.js'
import { describeOperator, settleOperator } from './operator-password.js'
import { prepareGracefulClose } from './shutdown.js'
import { listenFailure } from './start-refusal.js'

// `docker stop` waits 10 s before SIGKILL: exit well before, even if a client holds on.
const FORCE_EXIT_MS = 6_000

// The process: the command line, configuration, logger, listen, graceful close. Everything else
// is in buildApp. `startupDone` is the entry's (server.ts): V8's flags for after the start
// (process/heap.ts), and the code cache written before them.
export async function main(
  startupDone: () => void,
  argv: readonly string[] = process.argv.slice(2),
): Promise<void> {
  const command = parseCommandLine(argv)
  if ('print' in command) return void process.stdout.write(command.print)
  if ('refuse' in command) refuseUsage(command.refuse)
  // The MCP server for coding agents (docs/agents.md): loaded only for this subcommand.
  if ('mcp' in command) return (await import('./mcp.js')).runMcp(command.mcp, startupDone)
  let loaded: Config
  try {
    loaded = loadConfig(undefined, command.start)
  } catch (err) {
    if (err instanceof ConfigError) refuseUsage(`invalid configuration: ${err.problems.join('; ')}`)
    throw err
  }
  // Beyond loopback without SANDBOX_OPERATOR: the password generated at the first start.
  let config: Config
  try {
    config = settleOperator(loaded)
  } catch (err) {
    refuseStart(err)
  }
  const pretty =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true)
  const logger = createLogger(config.logLevel, undefined, { pretty, colour: pretty && process.stdout.isTTY })
  warnIfDescriptorsShort(config, logger)
  const app = await buildApp(config, { logger }).catch(refuseStart)
  const graceful = prepareGracefulClose(app)
  // Before the API's port: a hook cannot be added to the app once it listens.
  const metricsPort = config.metricsPort
  const metrics =
    metricsPort === undefined
      ? undefined
      : await listenMetrics(app.metrics, { port: metricsPort, host: config.host }).catch(err =>
          refuseStart(listenFailure(err, metricsPort, config.host, 'METRICS_PORT')),
        )
  if (metrics) app.addHook('onClose', () => metrics.close())
  const address = await app
    .listen({ port: config.port, host: config.host })
    .catch(err => refuseStart(listenFailure(err, config.port, config.host)))
  // From here on, a failure nobody foresaw is logged as a bug, not a reason to stop serving.
  keepServingOnUncaught(logger)
  // Before the TLS port: making its certificates (node-forge, in JavaScript) needs optimized code.
  startupDone()
  // What a person starting it needs: written whatever LOG_LEVEL says.
  const told = logger.child({}, { level: 'info' })
  told.info(
    {
      url: address,
      version: VERSION,
      ui: `${address}/_sandbox/ui/`,
      docs: `${address}/_sandbox/docs`,
      appKey: DEFAULT_APP_KEY,
      masterSecret: DEFAULT_MASTER_SECRET,
      devKey: DEFAULT_DEV_KEY,
      devSecret: DEFAULT_DEV_SECRET,
      database: config.database,
    },
    `jiguang-sandbox listening on ${address} (version ${VERSION}): JSMS ${address}/v1, JPush ${address}/v3, ` +
      `web UI ${address}/_sandbox/ui/, API docs ${address}/_sandbox/docs; ` +
      `default app ${DEFAULT_APP_KEY}:${DEFAULT_MASTER_SECRET}`,
  )
  // Who the operator is, and why: a generated password is shown at the start that made it only.
  const operator = describeOperator(config)
  told.info(operator.fields, operator.message)
  if (metrics) logger.info({ metricsUrl: metrics.url }, `metrics at ${metrics.url}`)
  const tlsPort = config.tlsPort
  if (tlsPort !== undefined) {
    // A TLS port that cannot be had refuses the start, as PORT does: serving plain HTTP only while
    // ready said 200 hid the failure from every client that needed HTTPS.
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

/** A mistake on the command line or in the environment: one line, exit 2 (a usage error). */
function refuseUsage(line: string): never {
  console.error(`jiguang-sandbox: ${line}`)
  process.exit(2)
}

/**
 * Connections and TLS handshakes are each a descriptor: bounds above the open-file limit would let
 * the process run out of descriptors first, and a listener out of them resets every newcomer,
 * health checks included. Said once at start; the operator raises `ulimit -n` (or the
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
