import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Dispatcher } from 'undici'
import { type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { useDrain } from './http/drain.js'
import { logListenerErrors } from './http/listener-errors.js'
import { OneLineRequestLog } from './http/request-log.js'
import { registerRoot } from './http/root.js'
import {
  clientErrors,
  errorsOutsideSurfaces,
  frameworkErrors,
  notFoundOutsideSurfaces,
  type Surfaces,
} from './http/surfaces.js'
import { requestTimeouts } from './http/timeouts.js'
import { createProvisioningGuard } from './limits/provisioning.js'
import { pushSurfaces } from './push/errors.js'
import { pushApi } from './push/index.js'
import { sandboxFrameworkErrors } from './sandbox/errors.js'
import { createFaults } from './sandbox/faults.js'
import { sandboxApi } from './sandbox/index.js'
import type { ReadinessCheck } from './sandbox/ops.js'
import { createScheduler, type Scheduler } from './scheduler/index.js'
import { applySeed } from './seed/provision.js'
import { emptySeed, readSeedFile } from './seed/seed-file.js'
import type { AuthDeps } from './sms/auth.js'
import { smsApi, smsFrameworkErrors } from './sms/index.js'
import { closeDatabase, openDatabase } from './store/db.js'
import { databaseStatus } from './store/health.js'
import { createStore, type Store } from './store/index.js'
import { createTlsMaterial, type TlsMaterial } from './tls/index.js'

export interface AppOptions {
  clock?: Clock
  logger?: FastifyBaseLogger
  /** Where callbacks to the apps' URLs go out (undici); tests may inject one. */
  dispatcher?: Dispatcher
}

/** Wiring only: the whole surface of the sandbox on one screen. */
export async function buildApp(
  config: Config,
  { clock = systemClock, logger, dispatcher }: AppOptions = {},
): Promise<SandboxApp> {
  // Which vendor's envelope answers what Fastify refuses before routing (malformed URL…). The
  // first entry also answers for paths outside every prefix.
  const surfaces: Surfaces = [
    ['/v1', smsFrameworkErrors],
    ...pushSurfaces,
    ['/_sandbox', sandboxFrameworkErrors],
  ]
  const onClientError = clientErrors(surfaces)
  // Typed without Fastify's PromiseLike, so awaiting buildApp keeps the properties assigned below.
  const app: FastifyInstance = Fastify({
    loggerInstance: logger,
    // The official clients send `//` and trailing slashes (sdk-wire-capture.md §6).
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    logController: new OneLineRequestLog(),
    frameworkErrors: frameworkErrors(surfaces),
    clientErrorHandler: onClientError,
    ...requestTimeouts(config.requestTimeoutMs),
    // Requests arriving during the close are refused by useDrain, in the vendor's envelope.
    return503OnClosing: false,
  })
  useDrain(app)
  onClientError.watch(app.server)
  app.setNotFoundHandler(notFoundOutsideSurfaces(surfaces))
  app.setErrorHandler(errorsOutsideSurfaces(surfaces))
  logListenerErrors(app.server, app.log)
  const db = openDatabase(config.database)
  const store = createStore(db, { log: app.log.child({ component: 'store' }) })
  const seed = config.seedFile ? readSeedFile(config.seedFile) : emptySeed
  const { sensitiveWords } = applySeed(store, seed, clock.now())
  // The caps on auto-provisioning are one guard, shared by every surface that authenticates.
  const deps: AuthDeps = {
    store,
    clock,
    config,
    sensitiveWords,
    provisioning: createProvisioningGuard(config),
  }
  const scheduler = createScheduler({ ...deps, log: app.log.child({ component: 'scheduler' }), dispatcher })
  // Certificates follow real time (clients check them against their own clocks), never app time.
  const tls = createTlsMaterial(config, systemClock)
  // GET /_sandbox/ready: every check must pass.
  const readiness: ReadinessCheck[] = [
    { name: 'database', check: databaseStatus(db, { health: store.health }) },
    { name: 'scheduler', check: () => scheduler.running || 'scheduler not running' },
  ]

  // Failures a test arms through /_sandbox/faults, applied by the two API surfaces.
  const faults = createFaults()

  // After every answer the scheduler looks again at its timer (a comparison: the earliest due time
  // is known in memory), so a clock moved by a test in-process is noticed.
  app.addHook('onResponse', (_req, _reply, done) => {
    scheduler.poke()
    done()
  })
  // Each surface runs it right after Basic auth: the app's due work, caught up before the handler.
  const { catchUp } = scheduler
  registerRoot(app)
  await app.register(smsApi, { prefix: '/v1', ...deps, faults, catchUp })
  await app.register(pushApi, { prefix: '/v3', ...deps, faults, catchUp })
  await app.register(sandboxApi, { prefix: '/_sandbox', ...deps, scheduler, readiness, tls, faults, catchUp })

  app.addHook('onReady', async () => scheduler.start())
  app.addHook('onClose', async () => {
    await scheduler.stop()
    store.flush()
    store.close()
    closeDatabase(db)
  })
  return Object.assign(app, { store, clock, scheduler, tls, readiness })
}

export type SandboxApp = FastifyInstance & {
  store: Store
  clock: Clock
  scheduler: Scheduler
  tls: TlsMaterial
  readiness: ReadinessCheck[]
}
