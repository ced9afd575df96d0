import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import pino from 'pino'
import type { Dispatcher } from 'undici'
import { pushGroupRoutes } from './across/app/group.js'
import { appRoutes } from './across/app/routes.js'
import { transferRoutes } from './across/app/transfer.js'
import { createIdleApps } from './across/app-expiry.js'
import { callbackRoutes } from './across/callbacks.js'
import { clockRoutes } from './across/clock.js'
import { docsRoutes } from './across/docs.js'
import { eventRoutes } from './across/events/routes.js'
import { createFaults, type Faults, useAdminFaults, useFaults } from './across/faults/faults.js'
import { faultRoutes } from './across/faults/routes.js'
import { instanceRoutes } from './across/instance.js'
import { operatorRoutes } from './across/operator.js'
import { opsRoutes, type ReadinessCheck } from './across/ops.js'
import { requestRoutes, requestSource } from './across/requests.js'
import { ADMIN_PREFIX, admin, adminDialect, routeAdminHost } from './admin/index.js'
import { warningHeaders } from './advisor/advice.js'
import { type AppResets, createAppResets } from './app-resets.js'
import { type Courier, createCourier, dueCallbacks } from './callbacks/courier.js'
import { appNow, type Clock, systemClock } from './clock.js'
import type { Config } from './config.js'
import { operatorRefusals, sandboxDialect } from './control/dialect.js'
import { sandboxErrors } from './control/errors.js'
import type { JobDeps } from './deps.js'
import { createHub, type Hub, type HubOptions } from './events/hub.js'
import { createStream, type Stream } from './events/stream.js'
import { createEventTokens, type EventTokens } from './events/token.js'
import { type AppGate, createAppGate } from './http/app-gate.js'
import type { Dialect } from './http/dialect.js'
import {
  dueOf,
  type Feature,
  sandboxRoutes,
  streamSourcesOf,
  tablesOf,
  vendorRoutes,
} from './http/feature.js'
import { journalFirst, journalRequests } from './http/journal.js'
import { lazySchemaCompilers } from './http/lazy-compilers.js'
import { mounter } from './http/mount.js'
import { lazyRequestLogger, OneLineRequestLog } from './http/request-log.js'
import { registerRoot } from './http/root.js'
import { createRouteBook, MAX_PARAM_LENGTH, type RouteBook } from './http/route-book.js'
import { useConnections } from './http/socket/connections.js'
import { useDrain } from './http/socket/drain.js'
import { useLinger } from './http/socket/linger.js'
import { logListenerErrors } from './http/socket/listener-errors.js'
import { requestTimeouts } from './http/socket/timeouts.js'
import { createEnvelopes } from './http/surfaces.js'
import { createHeld, type Held } from './limits/held.js'
import { createProvisioningGuard, type ProvisioningGuard } from './limits/provisioning.js'
import { mcpRoutes } from './mcp/http.js'
import { registerLlmsTxt } from './mcp/llms-txt.js'
import { createMetrics, type Metrics } from './metrics/metrics.js'
import { collectOperations, type OpenApiDocument } from './openapi/document.js'
import { pushDevice, seedDeviceProblems } from './push/device/index.js'
import {
  BEIJING_PATHS,
  deviceDialect,
  HOST_PATHS,
  pushDialect,
  reportDialect,
  scheduleDialect,
} from './push/dialect.js'
import { pushFiles } from './push/files/index.js'
import { refusePlainHttp } from './push/https-only.js'
import { pushImages } from './push/images/index.js'
import { pushPlans } from './push/plans/index.js'
import { usePushRateLimit } from './push/rate-limit.js'
import { pushReport } from './push/report/index.js'
import { pushSchedules } from './push/schedules/index.js'
import { pushSend } from './push/send/index.js'
import { pushTemplates, seedTemplateProblems } from './push/templates/index.js'
import { createScheduler, type Scheduler } from './scheduler/index.js'
import { applySeed } from './seed/provision.js'
import { reprovision } from './seed/reprovision.js'
import { emptySeed, readSeedFile, type SeedFile } from './seed/seed-file.js'
import { smsAccounts } from './sms/accounts/index.js'
import { smsDialect } from './sms/dialect.js'
import { smsReports } from './sms/reports/index.js'
import { smsReviews } from './sms/reviews/index.js'
import { smsSchedules } from './sms/schedules/index.js'
import { smsSending } from './sms/sending/index.js'
import { smsSigns } from './sms/signs/index.js'
import { smsTemplates } from './sms/templates/index.js'
import { closeDatabase, openDatabase } from './store/engine/db.js'
import { databaseStatus } from './store/engine/health.js'
import { createStore, type Store } from './store/index.js'
import { createTlsMaterial, type TlsMaterial } from './tls/index.js'
import { uiRoutes } from './ui/routes.js'

/**
 * The features, one folder each (src/http/feature.ts): their vendor and control-plane routes, their
 * tables and their due work, mounted below in this order. The rest of each list is still spread
 * over src/sms, src/push, src/sandbox and src/store (docs/architecture.md "Features").
 */
export const features: readonly Feature<AppDeps, JobDeps>[] = [
  smsSending,
  smsAccounts,
  smsTemplates,
  smsSigns,
  smsReviews,
  smsSchedules,
  smsReports,
  pushSend,
  pushDevice,
  pushReport,
  pushSchedules,
  pushFiles,
  pushImages,
  pushTemplates,
  pushPlans,
  admin,
]

export interface AppOptions {
  clock?: Clock
  logger?: FastifyBaseLogger
  /** Where callbacks to the apps' URLs go out (undici); tests may inject one. */
  dispatcher?: Dispatcher
  /** Bounds of waiting and event streams (events/hub.ts); tests make them small. */
  events?: HubOptions
}

/** Wiring only: the whole sandbox on one screen — its state, background jobs, hooks and surfaces. */
export async function buildApp(
  config: Config,
  { clock = systemClock, logger, dispatcher, events }: AppOptions = {},
): Promise<SandboxApp> {
  // What no surface's own handlers see (a path outside every prefix, a malformed URL, bytes Node's
  // parser refuses) answers in the envelope of the surface the path names; JSMS's elsewhere.
  const envelopes = createEnvelopes(smsDialect)
  const requestLog = new OneLineRequestLog()
  // Typed without Fastify's PromiseLike, so awaiting buildApp keeps the properties assigned below.
  const app: FastifyInstance = Fastify({
    // Always a logger, if a silent one: Fastify reports a request's completion (to the request log,
    // and through it to the metrics) only when it has one.
    loggerInstance: logger ?? pino({ level: 'silent' }),
    // The official clients send `//` and trailing slashes (sdk-wire-capture.md §6).
    // The longest parameter is find-my-way's default, named where the derived 405s read it.
    routerOptions: {
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      maxParamLength: MAX_PARAM_LENGTH,
    },
    // A request to the Admin API's host (admin.jpush.cn) is routed under ADMIN_PREFIX (its paths
    // are /v1/app…, JSMS's prefix here); every other URL is routed as it came (admin/host.ts).
    rewriteUrl: routeAdminHost,
    bodyLimit: 1024 * 1024,
    logController: requestLog,
    childLoggerFactory: lazyRequestLogger,
    frameworkErrors: envelopes.errorHandler,
    clientErrorHandler: envelopes.clientErrors,
    ...requestTimeouts(config.requestTimeoutMs),
    // Requests arriving during the close are refused by useDrain, in the vendor's envelope.
    return503OnClosing: false,
    schemaController: lazySchemaCompilers,
  })

  // State: one SQLite database behind the store, seeded from the seed file.
  const db = openDatabase(config.database)
  const store = createStore(db, {
    log: app.log.child({ component: 'store' }),
    journalMaxPerApp: config.journalMaxPerApp,
    appIdleMs: config.autoProvisionIdleMs,
    tables: tablesOf(features),
  })
  const seed = config.seedFile
    ? readSeedFile(config.seedFile, [seedTemplateProblems, seedDeviceProblems(config.maxDevicesPerApp)])
    : emptySeed
  const { sensitiveWords } = applySeed(store, seed, clock.now())

  // Per-app state held in memory (faults, rate windows, callbacks on the wire…) forgets an app
  // when it is reset or removed (app-resets.ts).
  const appResets = createAppResets()
  // An import a stopped process left half-written is undone: the app is as at its first use.
  for (const appKey of store.appDocument.closedApps()) {
    const closed = store.apps.get(appKey)
    if (!closed) continue
    store.transaction(() => reprovision({ store, seed, appResets }, closed, clock.now()))
    app.log.warn({ app_key: appKey }, 'the import of this app was cut by a stop: the app is reset')
  }

  // What the process holds for its clients (connections, TLS handshakes, event streams, waits),
  // bounded per client address and in total, the busiest giving way to a newcomer when the process
  // is full; refusals are logged once a minute per bound.
  const held = createHeld(config, app.log.child({ component: 'bounds' }))
  const hub = createHub(
    store,
    (reason, status) => sandboxErrors.tooManyListeners(reason).withStatus(status),
    held,
    {
      maxWaiters: config.maxWaitingPerApp,
      maxSubscribers: config.maxEventStreamsPerApp,
      ...events,
      stream: { maxLifeMs: config.eventStreamMaxLifeMs, ...events?.stream },
    },
  )
  // Idle auto-provisioned apps expire, removed as DELETE /_sandbox/app removes them.
  const idleApps = createIdleApps({
    store,
    seed,
    appResets,
    clock,
    idleMs: config.autoProvisionIdleMs,
    listened: appKey => {
      const { waiters, subscribers } = hub.count(appKey)
      return waiters + subscribers > 0
    },
    removed: appKey => hub.appRemoved(appKey),
  })

  // Background jobs: the due-work loop over the list of what falls due as time passes, each entry
  // declared with its feature under the step of a tick it runs in (scheduler/due-work.ts:
  // DUE_STEPS; reviews decided first, so a task or a fallback firing at the same moment sends with
  // what was approved), then what is not in a feature yet.
  const jobDeps = { store, clock, config, sensitiveWords, log: app.log.child({ component: 'scheduler' }) }
  const courier = createCourier({ ...jobDeps, dispatcher, appResets })
  const scheduler = createScheduler(
    jobDeps,
    dueOf(features, {
      callBack: [dueCallbacks(courier)],
      expire: idleApps.work,
    }),
  )

  // The metrics' name of each surface, by the dialect that answers its paths.
  const surfaceNames = new Map<Dialect, string>([
    [smsDialect, 'sms'],
    [pushDialect, 'push'],
    [deviceDialect, 'device'],
    [reportDialect, 'report'],
    [scheduleDialect, 'schedule'],
    [sandboxDialect, 'sandbox'],
  ])
  const surfaceOf = (url: string) => {
    const name = surfaceNames.get(envelopes.dialectFor(url)) ?? 'other'
    return name === 'sandbox' && url.startsWith('/_sandbox/ui') ? 'ui' : name
  }

  // GET /_sandbox/ready: every check must pass.
  const readiness: ReadinessCheck[] = [
    { name: 'database', check: databaseStatus(db, { health: store.health }) },
    { name: 'scheduler', check: () => scheduler.running || 'scheduler not running' },
  ]
  const deps: AppDeps = {
    store,
    clock,
    config,
    sensitiveWords,
    seed,
    appResets,
    provisioning: createProvisioningGuard(config, appResets),
    // Faults live in memory: each change is an event of the log (fault.changed), on the app's clock.
    faults: createFaults(appResets, (appKey, change) =>
      store.write({ announces: ['fault.changed'] }, () => {
        const app = store.apps.get(appKey)
        if (app) store.events.append({ appKey, type: 'fault.changed', data: change, at: appNow(clock, app) })
      }),
    ),
    routeBook: createRouteBook(app),
    appGate: createAppGate(),
    scheduler,
    courier,
    // Certificates follow real time (clients check them against their own clocks), never app time.
    tls: createTlsMaterial(config, systemClock),
    readiness,
    held,
    hub,
    // Real time, like the certificates: a token is about the client's security, not app time.
    eventTokens: createEventTokens(systemClock),
    stream: createStream(store.events, streamSourcesOf(features, store, [requestSource(store)])),
    // The OpenAPI document (GET /_sandbox/openapi.json) describes every route registered after this.
    openApiDocument: collectOperations(app),
    metrics: createMetrics({ store, held, scheduler, clock, database: config.database, surfaceOf }),
    startedAt: Date.now(),
  }
  requestLog.observer = deps.metrics.observe

  // App-wide hooks, before the surfaces so that every route and 404 inherits them.
  // Bounds on connections, and back-pressure: a client that reads nothing stops being read.
  const connections = useConnections(app, held, config)
  // An answer before the body has arrived (over the limit): the rest is read, not reset.
  useLinger(app, config)
  useDrain(app, connections) // the graceful close: late requests refused, connections ended in order
  // HTTPS_ONLY: plain HTTP on /v3 is refused first, before auth, as the vendor's front does.
  if (config.httpsOnly) app.addHook('onRequest', refusePlainHttp)
  // A handler's read that SQLite fails (a damaged page) reaches the store's health monitor, which
  // then refuses writes and readiness (store/engine/health.ts); writes report their own failures.
  app.addHook('onError', (_req, _reply, err, done) => {
    store.health.observe(err)
    done()
  })
  // The request journal: each answered request that names an app, recorded as it is answered.
  if (store.requests.enabled) app.addHook('onSend', journalRequests(deps))
  // The production advisor's warnings, as headers to a caller who asked (advisor/advice.ts).
  app.addHook('onSend', warningHeaders)
  // Each request answered for an app keeps it from expiring (app-expiry.ts).
  app.addHook('onResponse', idleApps.answered)
  envelopes.clientErrors.watch(app.server)
  app.server.on('connect', envelopes.connect)
  logListenerErrors(app.server, app.log)
  app.setNotFoundHandler(envelopes.notFound)
  app.addHook('onRequest', envelopes.notAllowedOutside)
  app.setErrorHandler(envelopes.errorHandler)
  registerRoot(app)
  registerLlmsTxt(app)

  // The surfaces: prefix, dialect (what it calls each failure), route tables.
  const mount = mounter(app, deps, envelopes)
  // The vendor surfaces answer what a test armed through /_sandbox/faults, after auth.
  const faults = (scope: FastifyInstance) => useFaults(scope, deps.faults)
  await mount('/v1', smsDialect, vendorRoutes(features, 'sms'), { beforeHandler: faults })
  // The push, device and report hosts of jpush-api.md §1.1 share /v3, each with its own codes,
  // and so does the Schedule API (§8); the device and report hosts also answer at the Beijing data centre's paths (BEIJING_PATHS).
  await mount('/v3', pushDialect, vendorRoutes(features, 'push'), {
    groups: [
      {
        dialect: deviceDialect,
        paths: HOST_PATHS.device,
        aliases: BEIJING_PATHS.device,
        routes: vendorRoutes(features, 'device'),
      },
      {
        dialect: reportDialect,
        paths: HOST_PATHS.report,
        aliases: BEIJING_PATHS.report,
        routes: vendorRoutes(features, 'report'),
      },
      { dialect: scheduleDialect, paths: HOST_PATHS.schedule, routes: vendorRoutes(features, 'schedule') },
    ],
    hooks: usePushRateLimit,
    beforeHandler: faults,
  })
  // The JPush Admin API (admin.jpush.cn/v1, devKey:devSecret): apps and their APNs certificates.
  // Faults armed by an app on /admin/v1… answer its developer's Admin API requests.
  await mount(ADMIN_PREFIX, adminDialect, vendorRoutes(features, 'admin'), {
    standing: false,
    beforeHandler: scope => useAdminFaults(scope, deps.faults, appKey => store.apps.get(appKey)?.devKey),
  })
  // Same credentials, so one app only ever sees and steers itself; blacklisted or frozen apps
  // may still look inside, and faults are for the vendor surfaces.
  await mount(
    '/_sandbox',
    sandboxDialect,
    [
      appRoutes,
      transferRoutes,
      clockRoutes,
      callbackRoutes,
      pushGroupRoutes,
      ...sandboxRoutes(features),
      opsRoutes,
      instanceRoutes,
      faultRoutes,
      eventRoutes,
      requestRoutes,
      operatorRoutes,
      docsRoutes,
      // The MCP server for coding agents: its tools call the routes above (src/mcp/).
      mcpRoutes,
    ],
    // The operator (SANDBOX_OPERATOR) lists every app, and acts on the one X-Sandbox-App names.
    // Each request sees every request answered before it, journal included (http/journal.ts).
    {
      standing: false,
      operator: operatorRefusals,
      beforeHandler: scope => scope.addHook('preHandler', journalFirst(deps)),
    },
  )
  // The web UI, a client of the control plane: its page and files are public, it signs in itself.
  await mount('/_sandbox/ui', sandboxDialect, [uiRoutes], { standing: false })
  // Held requests are answered and event streams ended as the close begins: the close must not
  // wait for them (http/socket/drain.ts then ends each connection once its answer is out).
  app.addHook('preClose', async () => deps.hub.close())

  app.addHook('onReady', async () => scheduler.start())
  app.addHook('onClose', async () => {
    deps.metrics.close()
    await scheduler.stop()
    await courier.close()
    store.requests.close()
    store.flush()
    store.close()
    closeDatabase(db)
  })
  return Object.assign(app, {
    store,
    clock,
    scheduler,
    tls: deps.tls,
    readiness,
    hub,
    held,
    metrics: deps.metrics,
  })
}

/**
 * The app's dependencies, built once by buildApp and handed to every surface and route table as
 * an option, never a global. Each module names the part it uses as its own small interface; this bag is
 * assignable to each.
 */
export interface AppDeps {
  store: Store
  clock: Clock
  config: Config
  /** The global sensitive-word list (defaults plus the seed file's); each app adds its own. */
  sensitiveWords: readonly string[]
  /** The caps on auto-provisioning: one guard, shared by every surface that authenticates. */
  provisioning: ProvisioningGuard
  /** Failures a test arms through /_sandbox/faults, applied by the vendor surfaces. */
  faults: Faults
  /** The routes the surfaces serve, for the faults to refuse a path no request could take. */
  routeBook: RouteBook
  /**
   * What the process keeps per app in memory forgets an app here when it is reset or removed:
   * a module holding such state subscribes once (app-resets.ts).
   */
  appResets: AppResets
  /** The seed file as read at start: what a reset makes a seed-file app again. */
  seed: SeedFile
  /** An app's requests wait while it is being replaced by an import (http/app-gate.ts). */
  appGate: AppGate
  scheduler: Scheduler
  /** Delivers the callback outbox; checks a callback URL before it is set (callbacks/courier.ts). */
  courier: Courier
  /** GET /_sandbox/ready: every check must pass; evaluated at each request. */
  readiness: readonly ReadinessCheck[]
  tls: TlsMaterial
  /**
   * Who listens to each app (requests held by `wait=`, event streams), woken once a commit that
   * concerns them is durable (events/hub.ts). Events themselves are written by the store:
   * `store.events.append(…)` inside the write that makes the change, which lists it
   * (`store.write({ announces: [type] }, job)`: engine/writer.ts).
   */
  hub: Hub
  /**
   * What the process holds for its clients, each bounded per client address and in total
   * (limits/held.ts); `held.counts()` is what an operator's metrics read.
   */
  held: Held
  /** Tokens that open GET /_sandbox/events without Basic credentials (events/token.ts). */
  eventTokens: EventTokens
  /** An app's events: every feature's rows that carry a seq, the journal and the event log, merged. */
  stream: Stream
  /** GET /_sandbox/openapi.json: every route registered, described; generated on first use. */
  openApiDocument: OpenApiDocument
  /** What GET /_sandbox/metrics (and METRICS_PORT) expose: told of every answered request. */
  metrics: Metrics
  /** When buildApp made the app, real time (epoch ms): GET /_sandbox/info. */
  startedAt: number
}

export type SandboxApp = FastifyInstance & {
  store: Store
  hub: Hub
  held: Held
  clock: Clock
  scheduler: Scheduler
  tls: TlsMaterial
  readiness: ReadinessCheck[]
  metrics: Metrics
}
