// jiguang-sandbox/client: a typed client of the sandbox's control plane, for test suites.
// No dependencies: the global fetch of Node 20+ (or any fetch given).

export type {
  App,
  AppDocument,
  AppPatch,
  AppSummary,
  AppsFilter,
  AppsPage,
  Balances,
  Clock,
  Fault,
  FaultInput,
  Imported,
  Removed,
  Storage,
} from './app-types.js'
export type * from './change-types.js'
export {
  type ClientOptions,
  DEFAULT_APP,
  OperatorClient,
  type OperatorOptions,
  SandboxClient,
} from './client.js'
export { createApp, type NewAppOptions, type ReadyOptions, randomKey, waitUntilReady } from './create-app.js'
export { NothingArrived, SandboxError } from './errors.js'
export {
  EVENT_TYPES,
  type EventOptions,
  type EventStream,
  type EventType,
  type ReviewDecision,
  type SandboxEvent,
} from './events.js'
export type { Fetch } from './http.js'
export type * from './list-types.js'
export { DEFAULT_WAIT_MS, MAX_WAIT_MS, type NextOptions } from './lists.js'
export type * from './steer-types.js'
