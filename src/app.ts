import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { sandboxApi } from './sandbox/index.js'
import type { ReadinessCheck } from './sandbox/ops.js'
import { applySeed } from './seed/provision.js'
import { emptySeed, readSeedFile } from './seed/seed-file.js'
import type { SmsDeps } from './sms/context.js'
import { smsApi } from './sms/index.js'
import { openDatabase } from './store/db.js'
import { databaseStatus } from './store/health.js'
import { createStore } from './store/index.js'
import { createTlsMaterial } from './tls/index.js'

export interface AppOptions {
  clock?: Clock
  logger?: FastifyBaseLogger
}

/** Wiring only: the whole surface of the sandbox on one screen. */
export async function buildApp(config: Config, { clock = systemClock, logger }: AppOptions = {}) {
  // Typed without Fastify's PromiseLike, so awaiting buildApp keeps the properties assigned below.
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    // The official clients send `//` and trailing slashes (sdk-wire-capture.md §6).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
  })
  const db = openDatabase(config.database)
  const store = createStore(db)
  const seed = config.seedFile ? readSeedFile(config.seedFile) : emptySeed
  const { sensitiveWords } = applySeed(store, seed, clock.now())
  const deps: SmsDeps = { store, clock, config, sensitiveWords }
  // Certificates follow real time (clients check them against their own clocks), never app time.
  const tls = createTlsMaterial(config, systemClock)
  // GET /_sandbox/ready: every check must pass; more are pushed as components are wired.
  const readiness: ReadinessCheck[] = [{ name: 'database', check: databaseStatus(db) }]

  await app.register(smsApi, { prefix: '/v1', ...deps })
  await app.register(sandboxApi, { prefix: '/_sandbox', ...deps, readiness, tls })

  app.addHook('onClose', async () => {
    store.flush()
    db.close()
  })
  return Object.assign(app, { store, clock, tls, readiness })
}

export type SandboxApp = Awaited<ReturnType<typeof buildApp>>
