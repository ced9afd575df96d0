import type { Answer, ItemOf } from './wire.js'

// What the control plane's app, clock and fault endpoints take and answer. The answers are read
// out of the generated description (openapi.ts, `npm run client:types`); what a test writes
// (a patch, a fault, a filter) is written out here, tied to the server's schemas by
// test/client/wire-types.ts.

/** Units left in each bucket; null: no quota allocated (the real service's "unlimited"). */
export type Balances = App['balances']

/** GET /_sandbox/app: the keys of a seed file's `apps[]` entry, its developer and its clock. */
export type App = Answer<'getSandboxApp'>

/** GET /_sandbox/app/storage: the app's share of the disk. */
export type Storage = Answer<'getSandboxAppStorage'>

type Quota = { total: number; used: number }
type VendorQuota = { system?: Quota | undefined; operation?: Quota | undefined }

/**
 * PATCH /_sandbox/app: any subset, by the seed file's rules. Objects with fixed keys merge
 * (`settings`, `rate_limits`, `push`, `balances`, `developer`); the rest is replaced whole;
 * `callback_url: null` removes it, and a new one must pass the vendor's URL check.
 */
export interface AppPatch {
  blacklisted?: boolean | undefined
  sms_enabled?: boolean | undefined
  ip_whitelist?: string[] | undefined
  sensitive_words?: string[] | undefined
  unsubscribed?: string[] | undefined
  callback_url?: string | null | undefined
  balances?: Partial<Balances> | undefined
  settings?:
    | {
        rate_limits?:
          | {
              push?: number | undefined
              device?: number | undefined
              report?: number | undefined
              schedule?: number | undefined
            }
          | undefined
        broadcasts_per_day?: number | undefined
        schedules_limit?: number | undefined
        segments?: Record<string, string[]> | undefined
        abtests?: Record<string, string[]> | undefined
        /** The production advisor: warnings as X-Sandbox-Warning headers; refusals where production refuses. */
        warnings?: { header?: boolean | undefined; strict?: boolean | undefined } | undefined
        group?: { group_key: string; master_secret: string } | undefined
        quota?:
          | {
              xiaomi_quota?: VendorQuota | undefined
              oppo_quota?: VendorQuota | undefined
              vivo_quota?: VendorQuota | undefined
            }
          | undefined
        push?: { strict_types?: boolean | undefined } | undefined
      }
    | undefined
  developer?: { frozen?: boolean | undefined; balances?: Partial<Balances> | undefined } | undefined
}

/** DELETE /_sandbox/app. `recreated`: the seed file defines it, so it was made again at once. */
export type Removed = Answer<'deleteSandboxApp'>

/** The app's clock: `now` in epoch milliseconds, and how far it is ahead of real time. */
export type Clock = Answer<'getSandboxClock'>

/** POST /_sandbox/faults: the next `times` requests matching `method`, `path` and `match` fail. */
export interface FaultInput {
  /** A path under /v1 or /v3 (`/v1/codes`, `/v1/codes/:msg_id/valid`), or `*` (the default). */
  path?: string
  /** Any method the path answers, when left out. */
  method?: string
  /** The vendor's error code to answer (its documented status and message unless given). */
  code?: number
  status?: number
  message?: string
  /** Real time to hold the request first (at most 60 000). */
  delay_ms?: number
  /** How many requests it fails (1 by default). */
  times?: number
  /** Only requests naming this recipient. */
  match?: { mobile: string } | { registration_id: string }
}

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

export interface AppsFilter {
  /** appKeys starting with this. */
  prefix?: string
  /** Last request at or after / before these real times. */
  active_since?: string | number | Date
  active_until?: string | number | Date
  after?: number
  before?: number
  limit?: number
  /** With `after`: hold the request until an app is active (ms, at most 30 000). */
  wait?: number
}
