import Fastify, { type FastifyBaseLogger } from 'fastify'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { OneLineRequestLog } from './http/request-log.js'
import {
  clientErrors,
  errorsOutsideSurfaces,
  frameworkErrors,
  notFoundOutsideSurfaces,
  type Surfaces,
} from './http/surfaces.js'
import { sandboxApi } from './sandbox/index.js'
import { applySeed } from './seed/provision.js'
import { emptySeed, readSeedFile } from './seed/seed-file.js'
import type { SmsDeps } from './sms/context.js'
import { smsApi, smsFrameworkErrors } from './sms/index.js'
import { openDatabase } from './store/db.js'
import { createStore } from './store/index.js'

export interface AppOptions {
  clock?: Clock
  logger?: FastifyBaseLogger
}

/** Wiring only: the whole surface of the sandbox on one screen. */
export async function buildApp(config: Config, { clock = systemClock, logger }: AppOptions = {}) {
  // Which vendor's envelope answers what Fastify refuses before routing (malformed URL…).
  const surfaces: Surfaces = [
    ['/v1', smsFrameworkErrors],
    ['/_sandbox', smsFrameworkErrors],
  ]
  const app = Fastify({
    loggerInstance: logger,
    // The official clients send `//` and trailing slashes (sdk-wire-capture.md §6).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    logController: new OneLineRequestLog(),
    frameworkErrors: frameworkErrors(surfaces),
    clientErrorHandler: clientErrors(surfaces),
  })
  app.setNotFoundHandler(notFoundOutsideSurfaces(surfaces))
  app.setErrorHandler(errorsOutsideSurfaces(surfaces))
  const db = openDatabase(config.database)
  const store = createStore(db)
  const seed = config.seedFile ? readSeedFile(config.seedFile) : emptySeed
  const { sensitiveWords } = applySeed(store, seed, clock.now())
  const deps: SmsDeps = { store, clock, config, sensitiveWords }

  await app.register(smsApi, { prefix: '/v1', ...deps })
  await app.register(sandboxApi, { prefix: '/_sandbox', ...deps })

  app.addHook('onClose', async () => {
    store.flush()
    store.close()
    db.close()
  })
  return Object.assign(app, { store, clock })
}

export type SandboxApp = Awaited<ReturnType<typeof buildApp>>
