import type { Answer, Body, ItemOf, Query, WithTimes } from './wire.js'

// What the control plane's app, clock and fault endpoints take and answer. The answers are read
// out of the generated description (openapi.ts, `npm run client:types`), and so is what a test
// writes (a patch, a fault, a filter): the routes' schemas say both.

/** Units left in each bucket; null: no quota allocated (the real service's "unlimited"). */
export type Balances = App['balances']

/** GET /_sandbox/app: the keys of a seed file's `apps[]` entry, its developer and its clock. */
export type App = Answer<'getSandboxApp'>

/** GET /_sandbox/app/storage: the app's share of the disk. */
export type Storage = Answer<'getSandboxAppStorage'>

/**
 * PATCH /_sandbox/app: any subset, by the seed file's rules. Objects with fixed keys merge
 * (`settings`, `rate_limits`, `push`, `balances`, `developer`); the rest is replaced whole;
 * `callback_url: null` removes it, and a new one must pass the vendor's URL check. The keys that
 * cannot change at runtime (`app_key`, `clock`…) are `never`.
 */
export type AppPatch = Body<'patchSandboxApp'>

/** DELETE /_sandbox/app. `recreated`: the seed file defines it, so it was made again at once. */
export type Removed = Answer<'deleteSandboxApp'>

/** The app's clock: `now` in epoch milliseconds, and how far it is ahead of real time. */
export type Clock = Answer<'getSandboxClock'>

/** POST /_sandbox/faults: the next `times` requests matching `method`, `path` and `match` fail. */
export type FaultInput = Body<'postSandboxFaults'>

/** An armed fault, as POST and GET /_sandbox/faults show it. */
export type Fault = Answer<'postSandboxFaults'>

/**
 * GET /_sandbox/app/export: everything the app holds, for POST /_sandbox/app/import on the same or
 * another sandbox. `tables` are the app's rows as SQLite holds them; treat them as data to keep.
 */
export type AppDocument = Answer<'getSandboxAppExport'>

/** POST /_sandbox/app/import: the app now holds the document's state. */
export type Imported = Answer<'postSandboxAppImport'>

/** One app as the operator lists it (GET /_sandbox/apps). */
export type AppSummary = ItemOf<'getSandboxApps', 'apps'>

/** GET /_sandbox/apps: a page, most recently active first. */
export type AppsPage = Answer<'getSandboxApps'>

/** GET /_sandbox/apps' filters; the activity times (real time) also as epoch ms or a Date. */
export type AppsFilter = WithTimes<Query<'getSandboxApps'>, 'active_since' | 'active_until'>
