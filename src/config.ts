import { dirname } from 'node:path'
import { z } from 'zod'

// The only reader of process.env: everything else receives a frozen Config. Every setting is one
// row of SETTINGS: its environment variable, its command-line flag, what it is for, and how it is
// read (a zod schema with its default). The Config's fields, the validation, the configuration
// page's table (docs/configuration.md, checked by a test) and the command line all come from it:
// adding a setting is adding a row.

/** One setting, as the environment (`env`) and the command line (`--flag`) name it. */
export interface Setting<T> {
  env: string
  flag: string
  /** One line for `--help` and the configuration page. */
  describe: string
  /** Reads the text given (absent: `undefined`), with the default. */
  schema: z.ZodType<T, string | undefined>
  /**
   * Its value may be shown to anyone: GET /_sandbox/info (public, like /health) lists these rows'
   * values. Never on a path, a credential or anything else an instance's callers need not know.
   */
  public?: true
}

const setting = <T>(s: Setting<T>): Setting<T> => s
const int = (min: number, max: number) => z.coerce.number<string | undefined>().int().min(min).max(max)
/** setTimeout takes at most 2^31 − 1 ms; a larger value fires at once (Node warns and uses 1). */
const MAX_TIMER_MS = 2 ** 31 - 1
const flag = z.enum(['true', 'false', '1', '0']).transform(v => v === 'true' || v === '1')

export const SETTINGS = {
  port: setting({ env: 'PORT', flag: 'port', describe: 'HTTP port', schema: int(0, 65535).default(8080) }),
  host: setting({
    env: 'HOST',
    flag: 'host',
    describe: 'address to bind (0.0.0.0 to accept connections from elsewhere)',
    schema: z.string().min(1).default('127.0.0.1'),
  }),
  database: setting({
    env: 'DB_PATH',
    flag: 'db',
    describe: 'SQLite file (created with its folder); :memory: keeps nothing',
    schema: z.string().min(1).default('./data/sandbox.db'),
  }),
  logLevel: setting({
    env: 'LOG_LEVEL',
    flag: 'log-level',
    describe: 'pino level: fatal error warn info debug trace silent',
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  }),
  seedFile: setting({
    env: 'SANDBOX_CONFIG',
    flag: 'seed',
    describe: 'JSON or YAML seed file of developers and apps',
    schema: z.string().min(1).optional(),
  }),
  autoProvision: setting({
    env: 'AUTO_PROVISION',
    flag: 'auto-provision',
    describe: 'false: an unknown appKey is refused instead of getting a new app',
    public: true,
    schema: flag.default(true),
  }),
  // Caps on auto-provisioning: apps in the database, new apps per client address per minute and
  // per hour; and how long an auto-provisioned app may stay idle before it is removed.
  autoProvisionMaxApps: setting({
    env: 'AUTO_PROVISION_MAX_APPS',
    flag: 'auto-provision-max-apps',
    describe: 'no app is auto-provisioned once the database holds this many',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(100_000),
  }),
  autoProvisionPerMinute: setting({
    env: 'AUTO_PROVISION_PER_MINUTE',
    flag: 'auto-provision-per-minute',
    describe: 'new apps one client address may have auto-provisioned per minute',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(1_000),
  }),
  autoProvisionPerHour: setting({
    env: 'AUTO_PROVISION_PER_HOUR',
    flag: 'auto-provision-per-hour',
    describe: 'new apps one client address may have auto-provisioned per hour',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(1_000),
  }),
  autoProvisionIdleMs: setting({
    env: 'AUTO_PROVISION_IDLE_MS',
    flag: 'auto-provision-idle-ms',
    describe: 'an auto-provisioned app without a request, stream or wait for this long is removed (0: never)',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(24 * 3600_000),
  }),
  // Only a zone given is checked: the first Intl formatter loads ICU's zone data (≈ 15 ms of the
  // start), which the default need not pay before its first send.
  timeZone: setting({
    env: 'SMS_TIME_ZONE',
    flag: 'time-zone',
    describe: 'IANA zone of JSMS send_time and of every "per day" counter',
    public: true,
    schema: z
      .string()
      .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai')
      .default('Asia/Shanghai'),
  }),
  reviewDelayMs: setting({
    env: 'REVIEW_DELAY_MS',
    flag: 'review-delay-ms',
    describe: 'clock time a new template or signature stays under review before it is approved',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(60_000),
  }),
  reportDelayMs: setting({
    env: 'REPORT_DELAY_MS',
    flag: 'report-delay-ms',
    describe: 'clock time between a message going out and its delivery report',
    public: true,
    schema: int(0, Number.MAX_SAFE_INTEGER).default(2_000),
  }),
  callbackTimeoutMs: setting({
    env: 'CALLBACK_TIMEOUT_MS',
    flag: 'callback-timeout-ms',
    describe: 'real time a callback receiver gets to answer',
    public: true,
    schema: int(1, MAX_TIMER_MS).default(5_000),
  }),
  /** Real time to receive a whole request before it is answered 408; 0 = no limit. */
  requestTimeoutMs: setting({
    env: 'REQUEST_TIMEOUT_MS',
    flag: 'request-timeout-ms',
    describe: 'real time a client gets to send a whole request (0: no limit)',
    public: true,
    schema: int(0, MAX_TIMER_MS).default(30_000),
  }),
  /** HTTPS port, or undefined for no TLS listener. */
  tlsPort: setting({
    env: 'TLS_PORT',
    flag: 'tls-port',
    describe: "HTTPS port with the vendor hostnames' certificate; unset: no TLS listener",
    public: true,
    schema: int(0, 65535).optional(),
  }),
  /** Folder of the local CA's files; unset: beside the database (in memory for `:memory:`). */
  caDir: setting({
    env: 'CA_DIR',
    flag: 'ca-dir',
    describe: "where the local CA is kept (default: the database's folder)",
    schema: z.string().min(1).optional(),
  }),
  tlsExtraHosts: setting({
    env: 'TLS_EXTRA_HOSTS',
    flag: 'tls-extra-hosts',
    describe: 'more comma-separated DNS names or IPs for the TLS certificate',
    schema: z
      .string()
      .default('')
      .transform(v =>
        Object.freeze(
          v
            .split(',')
            .map(h => h.trim())
            .filter(Boolean),
        ),
      ),
  }),
  /** `auto`: pretty when stdout is a terminal (a person), JSON otherwise (a machine). */
  logFormat: setting({
    env: 'LOG_FORMAT',
    flag: 'log-format',
    describe: 'json (one object a line), pretty (for a person), auto: pretty on a terminal',
    schema: z.enum(['auto', 'json', 'pretty']).default('auto'),
  }),
  /** A second port answering only GET /metrics, without credentials; unset: none. */
  metricsPort: setting({
    env: 'METRICS_PORT',
    flag: 'metrics-port',
    describe: 'port answering GET /metrics (Prometheus) without credentials; unset: none',
    schema: int(0, 65535).optional(),
  }),
  // The request journal and the operator.
  journalMaxPerApp: setting({
    env: 'JOURNAL_MAX_PER_APP',
    public: true,
    flag: 'journal-max-per-app',
    describe: "requests each app's journal keeps, newest first (0: no journal)",
    schema: int(0, 1_000_000).default(1_000),
  }),
  operator: setting({
    env: 'SANDBOX_OPERATOR',
    flag: 'operator',
    describe: 'user:password of the operator, who lists and opens every app on /_sandbox (off: none)',
    schema: z
      .string()
      .default('operator:operator')
      .transform((v, ctx) => {
        if (v === 'off') return null
        const colon = v.indexOf(':')
        if (colon < 1 || colon === v.length - 1) {
          ctx.addIssue({ code: 'custom', message: 'must be user:password (neither empty), or off' })
          return z.NEVER
        }
        return Object.freeze({ user: v.slice(0, colon), password: v.slice(colon + 1) })
      }),
  }),

  // What one client (its address), one app, or the whole process may hold, so that no
  // client can take a shared sandbox from the others. Each bound, its default and what a client
  // sees beyond it: docs/reliability.md "Bounds".
  maxConnections: setting({
    env: 'MAX_CONNECTIONS',
    public: true,
    flag: 'max-connections',
    describe: 'open connections (plain and TLS) in total; beyond, a newcomer is answered 503',
    schema: int(1, 1_000_000).default(4_096),
  }),
  maxConnectionsPerClient: setting({
    env: 'MAX_CONNECTIONS_PER_CLIENT',
    public: true,
    flag: 'max-connections-per-client',
    describe: 'open connections of one client address; beyond, a newcomer is answered 429',
    schema: int(1, 1_000_000).default(1_024),
  }),
  maxTlsHandshakes: setting({
    env: 'MAX_TLS_HANDSHAKES',
    public: true,
    flag: 'max-tls-handshakes',
    describe: 'TLS handshakes under way at once, in total (beyond: the connection is closed)',
    schema: int(1, 1_000_000).default(256),
  }),
  maxTlsHandshakesPerClient: setting({
    env: 'MAX_TLS_HANDSHAKES_PER_CLIENT',
    public: true,
    flag: 'max-tls-handshakes-per-client',
    describe: 'TLS handshakes under way at once from one client address',
    schema: int(1, 1_000_000).default(64),
  }),
  tlsHandshakeTimeoutMs: setting({
    env: 'TLS_HANDSHAKE_TIMEOUT_MS',
    public: true,
    flag: 'tls-handshake-timeout-ms',
    describe: 'real time a TLS handshake may take before the connection is closed',
    schema: int(1, MAX_TIMER_MS).default(10_000),
  }),
  maxEventStreams: setting({
    env: 'MAX_EVENT_STREAMS',
    public: true,
    flag: 'max-event-streams',
    describe: 'open event streams (GET /_sandbox/events) in total; beyond, 503 90060',
    schema: int(1, 1_000_000).default(1_000),
  }),
  maxEventStreamsPerClient: setting({
    env: 'MAX_EVENT_STREAMS_PER_CLIENT',
    public: true,
    flag: 'max-event-streams-per-client',
    describe: 'open event streams of one client address, over all its apps; beyond, 429 90060',
    schema: int(1, 1_000_000).default(100),
  }),
  maxEventStreamsPerApp: setting({
    env: 'MAX_EVENT_STREAMS_PER_APP',
    public: true,
    flag: 'max-event-streams-per-app',
    describe: 'open event streams of one app; beyond, 429 90060',
    schema: int(1, 1_000_000).default(20),
  }),
  eventStreamMaxLifeMs: setting({
    env: 'EVENT_STREAM_MAX_LIFE_MS',
    public: true,
    flag: 'event-stream-max-life-ms',
    describe: 'real time an event stream stays open; then it ends and the client resumes with Last-Event-ID',
    schema: int(1_000, MAX_TIMER_MS).default(30 * 60_000),
  }),
  maxWaiting: setting({
    env: 'MAX_WAITING_REQUESTS',
    public: true,
    flag: 'max-waiting-requests',
    describe: 'requests held by wait= at once, in total; beyond, 503 90060',
    schema: int(1, 1_000_000).default(2_000),
  }),
  maxWaitingPerClient: setting({
    env: 'MAX_WAITING_REQUESTS_PER_CLIENT',
    public: true,
    flag: 'max-waiting-requests-per-client',
    describe: 'requests held by wait= at once from one client address; beyond, 429 90060',
    schema: int(1, 1_000_000).default(200),
  }),
  maxWaitingPerApp: setting({
    env: 'MAX_WAITING_REQUESTS_PER_APP',
    public: true,
    flag: 'max-waiting-requests-per-app',
    describe: 'requests held by wait= at once for one app; beyond, 429 90060',
    schema: int(1, 1_000_000).default(100),
  }),
  maxPipelined: setting({
    env: 'MAX_PIPELINED_REQUESTS',
    public: true,
    flag: 'max-pipelined-requests',
    describe: 'requests one connection may have unanswered at once; beyond, it is no longer read',
    schema: int(1, 10_000).default(16),
  }),
  maxClosingConnections: setting({
    env: 'MAX_CLOSING_CONNECTIONS',
    public: true,
    flag: 'max-closing-connections',
    describe:
      'connections that refused a pipelined burst past MAX_PIPELINED_REQUESTS and still owe answers, in total; beyond, the busiest address loses one, cut',
    schema: int(1, 1_000_000).default(16),
  }),
  maxClosingConnectionsPerClient: setting({
    env: 'MAX_CLOSING_CONNECTIONS_PER_CLIENT',
    public: true,
    flag: 'max-closing-connections-per-client',
    describe: 'such connections of one client address; beyond, its new one is cut at once',
    schema: int(1, 1_000_000).default(4),
  }),
  maxUnreadBytesPerConnection: setting({
    env: 'MAX_UNREAD_BYTES_PER_CONNECTION',
    public: true,
    flag: 'max-unread-bytes-per-connection',
    describe: "bytes of answers a connection's client has not read before its next request waits",
    schema: int(1_024, Number.MAX_SAFE_INTEGER).default(1024 * 1024),
  }),
  maxUnreadBytes: setting({
    env: 'MAX_UNREAD_BYTES',
    public: true,
    flag: 'max-unread-bytes',
    describe: 'bytes of answers unread by their clients, in total, before requests of such clients wait',
    schema: int(1_024, Number.MAX_SAFE_INTEGER).default(64 * 1024 * 1024),
  }),
  unreadTimeoutMs: setting({
    env: 'UNREAD_TIMEOUT_MS',
    public: true,
    flag: 'unread-timeout-ms',
    describe: 'real time a client may leave answers unread without taking a byte before it is disconnected',
    schema: int(1_000, MAX_TIMER_MS).default(60_000),
  }),
  maxDevicesPerApp: setting({
    env: 'MAX_DEVICES_PER_APP',
    public: true,
    flag: 'max-devices-per-app',
    describe: 'devices one app may register; beyond, the registration is refused',
    schema: int(1, Number.MAX_SAFE_INTEGER).default(100_000),
  }),
  pushDeliveriesKept: setting({
    env: 'PUSH_DELIVERIES_KEPT_PER_APP',
    public: true,
    flag: 'push-deliveries-kept-per-app',
    describe: "push deliveries kept per app: beyond, the app's oldest pushes are forgotten",
    schema: int(1_000, Number.MAX_SAFE_INTEGER).default(500_000),
  }),
} as const

type Settings = typeof SETTINGS
export type SettingName = keyof Settings

export type Config = {
  readonly [K in SettingName]: Settings[K] extends Setting<infer T> ? T : never
}

/** Every value that cannot be read, each as `VARIABLE: why` or `--flag: why`. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`)
  }
}

/**
 * The configuration from the environment, and from `given` (settings by name: the command line's
 * flags, which beat the environment). A value that cannot be read stops the start, naming it.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  given: Partial<Record<SettingName, string>> = {},
): Config {
  const values: Record<string, unknown> = {}
  const problems: string[] = []
  for (const [name, s] of Object.entries(SETTINGS) as Array<[SettingName, Setting<unknown>]>) {
    // `PORT=` in a compose file means "unset", not "invalid".
    const text = given[name] ?? (env[s.env] === '' ? undefined : env[s.env])
    const parsed = s.schema.safeParse(text)
    if (parsed.success) values[name] = parsed.data
    else {
      const where = given[name] === undefined ? s.env : `--${s.flag}`
      problems.push(...parsed.error.issues.map(i => `${where}: ${i.message}`))
    }
  }
  if (problems.length > 0) throw new ConfigError(problems)
  const config = values as { -readonly [K in SettingName]: Config[K] }
  config.caDir ??= config.database === ':memory:' ? undefined : dirname(config.database)
  return Object.freeze(config)
}

/** Defaults for tests and embedders: an in-memory database, nothing read from the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig({ DB_PATH: ':memory:', LOG_LEVEL: 'silent' }), ...overrides })
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}
