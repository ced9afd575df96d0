// The small interfaces the SMS and push pipelines and the due-work list name for what they use.
// Every other module names its own (`deps: { store: Store; hub: Hub }`); the whole bag, AppDeps,
// is src/app.ts's, and nothing imports it.
import type { FastifyBaseLogger } from 'fastify'
import type { Clock } from './clock.js'
import type { Config } from './config.js'
import type { Store } from './store/index.js'

/**
 * What the SMS and push pipelines use (sending, delivery, reports): the scheduler runs them too,
 * and is itself built from this part of the bag.
 */
export interface PipelineDeps {
  store: Store
  clock: Clock
  config: Config
  /** The global sensitive-word list (defaults plus the seed file's); each app adds its own. */
  sensitiveWords: readonly string[]
}

/** What the entries of the due-work list run with (src/app.ts hands it to the scheduler). */
export type JobDeps = PipelineDeps & { log: FastifyBaseLogger }
