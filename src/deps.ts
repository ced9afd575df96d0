import type { FastifyBaseLogger } from 'fastify'
import type { AppResets } from './app-resets.js'
import type { Courier } from './callbacks/courier.js'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import type { Hub } from './events/hub.js'
import type { EventTokens } from './events/token.js'
import type { RouteBook } from './http/route-book.js'
import type { ProvisioningGuard } from './limits/provisioning.js'
import type { Metrics } from './metrics/metrics.js'
import type { OpenApiDocument } from './openapi/document.js'
import type { Faults } from './sandbox/faults/faults.js'
import type { ReadinessCheck } from './sandbox/ops.js'
import type { Scheduler } from './scheduler/index.js'
import type { SeedFile } from './seed/seed-file.js'
import type { Store } from './store/index.js'
import type { TlsMaterial } from './tls/index.js'

/**
 * The app's dependencies, built once by buildApp and handed to every surface and route table as
 * an option, never a global. A module that needs less names its part with `Pick<AppDeps, …>`.
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
  scheduler: Scheduler
  /** Delivers the callback outbox; checks a callback URL before it is set (callbacks/courier.ts). */
  courier: Courier
  /** GET /_sandbox/ready: every check must pass; evaluated at each request. */
  readiness: readonly ReadinessCheck[]
  tls: TlsMaterial
  /**
   * Who listens to each app (requests held by `wait=`, event streams), woken once a commit that
   * concerns them is durable (events/hub.ts). Events themselves are written by the store:
   * `store.events.append(…)` inside the write that makes the change.
   */
  hub: Hub
  /** Tokens that open GET /_sandbox/events without Basic credentials (events/token.ts). */
  eventTokens: EventTokens
  /** GET /_sandbox/openapi.json: every route registered, described; generated on first use. */
  openApiDocument: OpenApiDocument
  /** What GET /_sandbox/metrics (and METRICS_PORT) expose: told of every answered request. */
  metrics: Metrics
  /** When buildApp made the app, real time (epoch ms): GET /_sandbox/info. */
  startedAt: number
}

/**
 * What the SMS and push pipelines use (sending, delivery, reports): the scheduler runs them too,
 * and is itself built from this part of the bag.
 */
export type PipelineDeps = Pick<AppDeps, 'store' | 'clock' | 'config' | 'sensitiveWords'>

/** What the entries of the due-work list run with (src/app.ts hands it to the scheduler). */
export type JobDeps = PipelineDeps & { log: FastifyBaseLogger }
