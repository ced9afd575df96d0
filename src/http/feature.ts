import type { StreamSource } from '../events/stream.js'
import { type DueSteps, dueInTickOrder } from '../scheduler/due-work.js'
import type { Engine } from '../store/engine/index.js'
import type { Store, Tables } from '../store/index.js'
import type { RouteTable } from './routes.js'

// One feature, one folder (docs/architecture.md "Features"): its vendor routes, its control-plane
// routes, its tables and its due work, behind this one contract, which src/app.ts mounts. The
// kernel (http/, store/engine, scheduler/, events/, openapi/) never imports a feature: a feature
// hands it what it brings, here.

/** The vendor hosts a feature's routes answer on: each is one surface of app.ts, with its dialect. */
export type VendorHost = 'sms' | 'push' | 'device' | 'report' | 'schedule' | 'admin'

/**
 * What a feature's entry file (`index.ts`) exports for app.ts to mount. `D` is what its route
 * tables use of the app's dependencies, `J` what its due work runs with (src/deps.ts: JobDeps);
 * declare a feature with `satisfies Feature` (its own types kept) and app.ts checks them against what it builds.
 */
export interface Feature<D = never, J = never> {
  /** Its folder under src/, e.g. `push/plans`. */
  name: string
  /** Its routes on the vendor surfaces, by host (jpush-api.md §1.1: push, device, report, schedule share /v3). */
  vendor?: Partial<Record<VendorHost, readonly RouteTable<D>[]>>
  /** Its routes on the control plane (/_sandbox). */
  sandbox?: readonly RouteTable<D>[]
  /**
   * What falls due as time passes, by the step of a tick it runs in (scheduler/due-work.ts:
   * DUE_STEPS, e.g. `{ decide: [dueReviews], announce: [dueReviewResults] }`).
   */
  due?: DueSteps<J>
  /**
   * Its tables on the store: each table module declares its property of `Tables` (store/index.ts),
   * and this makes it over the store engine.
   */
  tables?: (engine: Engine) => Partial<Tables>
  /**
   * Its rows that are events of an app's stream, each carrying its seq (`sms.sent`: the
   * messages), read from the store and shown as its own list shows them (events/stream.ts).
   */
  stream?: (store: Store) => readonly StreamSource[]
}

/** Every feature's route tables on one vendor host, in the features' order. */
export const vendorRoutes = <D>(features: readonly Feature<D, never>[], host: VendorHost): RouteTable<D>[] =>
  features.flatMap(f => f.vendor?.[host] ?? [])

/** Every feature's control-plane route tables, in the features' order. */
export const sandboxRoutes = <D>(features: readonly Feature<D, never>[]): RouteTable<D>[] =>
  features.flatMap(f => f.sandbox ?? [])

/**
 * The due-work list, in the order a tick runs it: step by step (DUE_STEPS), each step's entries in
 * the features' order, then those of `others` (due work not in a feature), in theirs.
 */
export const dueOf = <J>(features: readonly Feature<never, J>[], others: DueSteps<J> = {}) =>
  dueInTickOrder<J>([...features, { due: others }])

/** Every feature's sources of the event stream, over the store, then those of `others`. */
export const streamSourcesOf = (
  features: readonly Feature<never, never>[],
  store: Store,
  others: readonly StreamSource[] = [],
): StreamSource[] => [...features.flatMap(f => f.stream?.(store) ?? []), ...others]

/** Every feature's table factories, for createStore. */
export const tablesOf = (features: readonly Feature<never, never>[]) =>
  features.flatMap(f => (f.tables ? [f.tables] : []))
