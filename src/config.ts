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
  // IANA zone for JSMS send_time and for every "per day" counter (Beijing time by default).
  SMS_TIME_ZONE: z
    .string()
    .default('Asia/Shanghai')
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai'),
  // Clock time a new template or signature stays under review before it is approved.
  REVIEW_DELAY_MS: z.coerce.number().int().min(0).default(60_000),
  // Clock time between a message going out and its delivery report (GET /v1/report, SMS_REPORT).
  REPORT_DELAY_MS: z.coerce.number().int().min(0).default(2_000),
  // Real time a callback receiver gets to answer before the attempt counts as failed.
  CALLBACK_TIMEOUT_MS: z.coerce.number().int().min(1).default(5_000),
})

export interface Config {
  readonly port: number
  readonly host: string
  readonly database: string
  readonly logLevel: string
  readonly seedFile: string | undefined
  readonly autoProvision: boolean
  readonly timeZone: string
  readonly reviewDelayMs: number
  readonly reportDelayMs: number
  readonly callbackTimeoutMs: number
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
    timeZone: e.SMS_TIME_ZONE,
    reviewDelayMs: e.REVIEW_DELAY_MS,
    reportDelayMs: e.REPORT_DELAY_MS,
    callbackTimeoutMs: e.CALLBACK_TIMEOUT_MS,
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
