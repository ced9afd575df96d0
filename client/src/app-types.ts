// What the control plane's app, clock and fault endpoints take and answer, field for field (the
// server's zod schemas in src/sandbox; test/client/wire-types.ts fails the typecheck when the two
// differ). Written out rather than imported so that the client's declarations stand alone.

/** Units left in each bucket; null: no quota allocated (the real service's "unlimited"). */
export interface Balances {
  balance: number | null
  voice: number | null
  industry: number | null
  market: number | null
}

/** GET /_sandbox/app: the keys of a seed file's `apps[]` entry, its developer and its clock. */
export interface App {
  app_key: string
  blacklisted: boolean
  sms_enabled: boolean
  ip_whitelist: string[]
  sensitive_words: string[]
  unsubscribed: string[]
  callback_url: string | null
  balances: Balances
  settings: {
    /** Requests per minute of each /v3 host. */
    rate_limits: { push: number; device: number; report: number }
    broadcasts_per_day: number
    segments: Record<string, string[]>
    abtests: Record<string, string[]>
  }
  developer: { dev_key: string; dev_secret: string; frozen: boolean; balances: Balances }
  clock: Clock
}

/** GET /_sandbox/app/storage: the app's share of the disk. */
export interface Storage {
  /** The app's rows in each table. */
  rows: Record<string, number>
  /** An estimate of what the rows take in the database file, indexes included. */
  approx_bytes: number
  /** MAX_DEVICES_PER_APP and PUSH_DELIVERIES_KEPT_PER_APP. */
  limits: { devices: number; push_deliveries: number }
}

type Quota = { total: number; used: number }
type VendorQuota = { system?: Quota | undefined; operation?: Quota | undefined }

/**
 * PATCH /_sandbox/app: any subset, by the seed file's rules. Objects with fixed keys merge
 * (`settings`, `rate_limits`, `balances`, `developer`); the rest is replaced whole;
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
      }
    | undefined
  developer?: { frozen?: boolean | undefined; balances?: Partial<Balances> | undefined } | undefined
}

/** DELETE /_sandbox/app. `recreated`: the seed file defines it, so it was made again at once. */
export interface Removed {
  app_key: string
  deleted: true
  recreated: boolean
}

/** The app's clock: `now` in epoch milliseconds, and how far it is ahead of real time. */
export interface Clock {
  now: number
  offset_ms: number
}

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
export interface Fault {
  id: number
  method: string | null
  path: string
  match: { mobile?: string | undefined; registration_id?: string | undefined } | null
  code: number | null
  status: number | null
  message: string | null
  delay_ms: number
  remaining: number
}

/**
 * GET /_sandbox/app/export: everything the app holds, for POST /_sandbox/app/import on the same or
 * another sandbox. `tables` are the app's rows as SQLite holds them; treat them as data to keep.
 */
export interface AppDocument {
  format: 'jiguang-sandbox/app'
  version: 1
  /** The app it was exported from (an import keeps the importing app's own). */
  app_key: string
  /** The sandbox's schema version (its last migration) when exported. */
  sandbox_schema: number
  /** The app's clock when exported (epoch ms): an imported app's clock goes on from there. */
  clock: { now: number }
  /** The standing and balances of the app's developer account. */
  developer: {
    frozen: boolean
    balance: number | null
    voice: number | null
    industry: number | null
    market: number | null
  }
  /** The armed faults, as POST /_sandbox/faults takes them (`times`: what is left). */
  faults: Array<Record<string, unknown>>
  /** A BLOB's bytes (an image, a certificate) are `{ base64 }`. */
  tables: Record<string, Array<Record<string, string | number | null | { base64: string }>>>
}

/** POST /_sandbox/app/import: the app now holds the document's state. */
export interface Imported {
  app_key: string
  imported: true
  /** Rows written, in every table. */
  rows: number
  /** Faults armed again. */
  faults: number
}

/** One app as the operator lists it (GET /_sandbox/apps). */
export interface AppSummary {
  app_key: string
  created_at: string
  /** Real time of its last journaled request; null: none yet. */
  last_request_at: string | null
  /** The order of the apps' latest activity: larger is more recent (`after`, `before`). */
  activity: number
  counts: { texts: number; pushes: number; devices: number; requests: number; refusals: number }
  /** Its newest journaled request (`requests()` has it all); null: none kept. */
  last_request: {
    seq: number
    method: string
    path: string
    status: number
    code: number | null
    message: string | null
  } | null
  clock: Clock
}

/** GET /_sandbox/apps: a page, most recently active first. */
export interface AppsPage {
  apps: AppSummary[]
  /** `after: next_after` reads the apps active since (with `wait`, once there is one). */
  next_after: number
  /** `before: next_before` reads the next page; null: this page is empty. */
  next_before: number | null
}

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
