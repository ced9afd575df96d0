import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import type { Store } from '../store/index.js'

/** What every /v1 route module receives: dependencies arrive as options, not globals. */
export interface SmsDeps {
  store: Store
  clock: Clock
  config: Config
  /** The global sensitive-word list (defaults plus the seed file's); each app adds its own. */
  sensitiveWords: readonly string[]
}
