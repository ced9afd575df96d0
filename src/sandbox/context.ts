import type { Scheduler } from '../scheduler/index.js'
import type { SmsDeps } from '../sms/context.js'
import type { Faults } from './faults.js'

/** What the control plane's route modules receive: the API's dependencies and the scheduler. */
export interface SandboxDeps extends SmsDeps {
  scheduler: Scheduler
  faults: Faults
}
