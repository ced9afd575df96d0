import pino from 'pino'
import { buildApp } from './app.js'
import { ConfigError, loadConfig } from './config.js'
import {
  DEFAULT_APP_KEY,
  DEFAULT_DEV_KEY,
  DEFAULT_DEV_SECRET,
  DEFAULT_MASTER_SECRET,
} from './seed/fixtures.js'

// The process: configuration, logger, listen, graceful close. Everything else is in buildApp.
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message)
      process.exit(2)
    }
    throw err
  }
  const logger = pino({
    level: config.logLevel,
    // Credentials never reach the log.
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  })
  const app = await buildApp(config, { logger })
  const address = await app.listen({ port: config.port, host: config.host })
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

  let closing = false
  const shutdown = (signal: string) => {
    if (closing) return
    closing = true
    logger.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    app.close().then(
      () => process.exit(0),
      err => {
        logger.error({ err }, 'error while closing')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch(err => {
  console.error(err)
  process.exit(1)
})
