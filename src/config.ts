import { dirname } from 'node:path'
import { z } from 'zod'

// The only reader of process.env: everything else receives a frozen Config.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DB_PATH: z.string().min(1).default('./data/sandbox.db'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SANDBOX_CONFIG: z.string().min(1).optional(),
  AUTO_PROVISION: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform(v => v === 'true' || v === '1'),
  // Caps on auto-provisioning: apps in the database, and new apps per client address per minute.
  AUTO_PROVISION_MAX_APPS: z.coerce.number().int().min(0).default(100_000),
  AUTO_PROVISION_PER_MINUTE: z.coerce.number().int().min(0).default(1_000),
  // IANA zone for JSMS send_time and for every "per day" counter (Beijing time by default).
  // Only a zone given is checked: the first Intl formatter loads ICU's zone data (≈ 15 ms of the
  // start), which the default need not pay before its first send.
  SMS_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai')
    .default('Asia/Shanghai'),
  // Clock time a new template or signature stays under review before it is approved.
  REVIEW_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
  // Clock time between a message going out and its delivery report (GET /v1/report, SMS_REPORT).
  REPORT_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  // Real time a callback receiver gets to answer before the attempt counts as failed.
  CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
  // Real time a client gets to send a whole request (headers and body); 0 turns the limit off.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  // Optional HTTPS listener for SDKs that hard-code the vendor's hosts (jpush-api.md §1.1).
  TLS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Where the local CA lives; by default beside the database, so it survives on the same volume.
  CA_DIR: z.string().min(1).optional(),
  // More names for the TLS certificate (e.g. a compose service name), comma-separated.
  TLS_EXTRA_HOSTS: z.string().default(''),
})

export interface Config {
  readonly port: number
  readonly host: string
  readonly database: string
  readonly logLevel: string
  readonly seedFile: string | undefined
  readonly autoProvision: boolean
  /** No app is auto-provisioned once the database holds this many (every app counts). */
  readonly autoProvisionMaxApps: number
  /** New apps one client address may have provisioned per minute. */
  readonly autoProvisionPerMinute: number
  readonly timeZone: string
  readonly reviewDelayMs: number
  readonly reportDelayMs: number
  readonly callbackTimeoutMs: number
  /** Real time to receive a whole request before it is answered 408; 0 = no limit. */
  readonly requestTimeoutMs: number
  /** HTTPS port, or undefined for no TLS listener. */
  readonly tlsPort: number | undefined
  /** Folder of the local CA's files; undefined keeps the CA in memory (`:memory:` databases). */
  readonly caDir: string | undefined
  readonly tlsExtraHosts: readonly string[]
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(stripEmpty(env))
  if (!parsed.success) {
    const lines = parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`)
  }
  const e = parsed.data
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    database: e.DB_PATH,
    logLevel: e.LOG_LEVEL,
    seedFile: e.SANDBOX_CONFIG,
    autoProvision: e.AUTO_PROVISION,
    autoProvisionMaxApps: e.AUTO_PROVISION_MAX_APPS,
    autoProvisionPerMinute: e.AUTO_PROVISION_PER_MINUTE,
    timeZone: e.SMS_TIME_ZONE,
    reviewDelayMs: e.REVIEW_DELAY_MS,
    reportDelayMs: e.REPORT_DELAY_MS,
    callbackTimeoutMs: e.CALLBACK_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    tlsPort: e.TLS_PORT,
    caDir: e.CA_DIR ?? (e.DB_PATH === ':memory:' ? undefined : dirname(e.DB_PATH)),
    tlsExtraHosts: Object.freeze(
      e.TLS_EXTRA_HOSTS.split(',')
        .map(h => h.trim())
        .filter(Boolean),
    ),
  })
}

/** Defaults for tests and embedders: an in-memory database, nothing read from the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig({ DB_PATH: ':memory:', LOG_LEVEL: 'silent' }), ...overrides })
}

// `PORT=` in a compose file means "unset", not "invalid".
function stripEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v
  return out
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
