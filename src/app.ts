import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { routerErrors } from './http/error-handler.js'
import { pushTick } from './push/delivery.js'
import { groupFrameworkErrors } from './push/errors.js'
import { pushApi } from './push/index.js'
import { sandboxApi } from './sandbox/index.js'
import { applySeed } from './seed/provision.js'
import { emptySeed, readSeedFile } from './seed/seed-file.js'
import type { SmsDeps } from './sms/context.js'
import { smsApi, smsFrameworkErrors } from './sms/index.js'
import { openDatabase } from './store/db.js'
import { createStore, type Store } from './store/index.js'

export interface AppOptions {
  clock?: Clock
  logger?: FastifyBaseLogger
}

/** Wiring only: the whole surface of the sandbox on one screen. */
export async function buildApp(
  config: Config,
  { clock = systemClock, logger }: AppOptions = {},
): Promise<SandboxApp> {
  const app = Fastify({
    loggerInstance: logger,
    // The official clients send `//` and trailing slashes (sdk-wire-capture.md §6).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    frameworkErrors: routerErrors(
      { '/v1': smsFrameworkErrors, '/v3': groupFrameworkErrors.push, '/_sandbox': smsFrameworkErrors },
      smsFrameworkErrors,
    ),
  })
  const db = openDatabase(config.database)
  const store = createStore(db)
  const seed = config.seedFile ? readSeedFile(config.seedFile) : emptySeed
  const { sensitiveWords } = applySeed(store, seed, clock.now())
  const deps: SmsDeps = { store, clock, config, sensitiveWords }

  await app.register(smsApi, { prefix: '/v1', ...deps })
  await app.register(pushApi, { prefix: '/v3', ...deps })
  await app.register(sandboxApi, { prefix: '/_sandbox', ...deps })

  app.addHook('onClose', async () => {
    store.flush()
    db.close()
  })
  // pushTick: due push work (offline expiry, sms_message fallbacks); the scheduler calls it.
  const sandbox: SandboxApp = Object.assign(app, { store, clock, pushTick: () => pushTick(deps) })
  return sandbox
}

// Spelled out: a Fastify instance is thenable, so Awaited<ReturnType<typeof buildApp>> would
// unwrap it to a bare FastifyInstance and lose these fields.
export type SandboxApp = FastifyInstance & { store: Store; clock: Clock; pushTick: () => Promise<number> }
