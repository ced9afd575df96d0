import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { DEFAULT_APP } from '../../client/src/client.js'
import { buildApp, type SandboxApp } from '../app.js'
import {
  type Config,
  ConfigError,
  loadConfig,
  loadMcpConfig,
  type McpConfig,
  SETTINGS,
  type SettingName,
} from '../config.js'
import { StartRefusal } from '../errors.js'
import { createLogger } from '../log/logger.js'
import { injectFetch } from '../mcp/inject-fetch.js'
import { createMcpServer } from '../mcp/server.js'
import { type Credentials, createSession } from '../mcp/session.js'
import { NAME } from '../package.js'
import { settleOperator } from './operator-password.js'
import { listenFailure } from './start-refusal.js'

// `jiguang-sandbox mcp`: the MCP server (src/mcp/) on stdin and stdout, one line of an agent's
// configuration (docs/agents.md). A process of its own, as server.ts's is. Its tools call a running sandbox over HTTP (--url), or, with --embedded, a
// sandbox this process starts (in memory, listening on PORT so that the code under test reaches it
// too; the tools reach it through its own routes). stdout carries the protocol and nothing else: the
// sandbox's log and any stray console line go to stderr. It ends when stdin closes (the agent quit).

/** What the command line gave (process/cli.ts): the MCP server's own flags, and the sandbox's. */
export interface McpCommand {
  own: Partial<Record<keyof McpConfig, string>>
  start: Partial<Record<SettingName, string>>
}

export async function runMcp(command: McpCommand, startupDone: () => void): Promise<void> {
  // Before anything else can write: stdout is the protocol's alone.
  for (const name of ['log', 'info', 'debug'] as const) console[name] = console.error
  const mcp = read(() => loadMcpConfig(undefined, command.own))
  if (mcp.embedded && command.own.url !== undefined)
    refuse('--url: not with --embedded, which starts its own sandbox')
  const sandbox = mcp.embedded ? await startEmbedded(mcp, command.start) : remote(mcp, command.start)
  const server = createMcpServer(sandbox.session)
  const transport = new StdioServerTransport()

  let closing: Promise<void> | undefined
  const close = () => {
    closing ??= (async () => {
      // Whatever happens, the process ends: an agent waits for it.
      setTimeout(() => process.exit(0), 3_000).unref()
      await server.close().catch(() => {})
      await sandbox.close()
      process.exit(0)
    })()
    return closing
  }
  process.stdin.once('end', close)
  process.stdin.once('close', close)
  process.once('SIGTERM', close)
  process.once('SIGINT', close)
  await server.connect(transport)
  // Its start is over (server.ts, process/heap.ts): V8's usual heap growth and optimizing compiler
  // from now on.
  startupDone()
}

interface Sandbox {
  session: ReturnType<typeof createSession>
  close(): Promise<void>
}

/** The tools call a running sandbox at --url. */
function remote(mcp: McpConfig, start: McpCommand['start']): Sandbox {
  const sandboxFlags = Object.keys(start).filter(name => name !== 'operator')
  if (sandboxFlags.length > 0)
    refuse(`${sandboxFlags.map(flagOf).join(', ')}: a setting of the sandbox, which only --embedded starts`)
  const credentials = credentialsOf(mcp, mcp.operator)
  return { session: createSession({ baseUrl: mcp.url, credentials }), close: async () => {} }
}

/**
 * A sandbox of this process, configured as `jiguang-sandbox` is (its flags and environment), in
 * memory unless --db names a file. The tools act as its operator (on the default app unless a call
 * names another), or as the app --app-key and --master-secret name.
 */
async function startEmbedded(mcp: McpConfig, start: McpCommand['start']): Promise<Sandbox> {
  // Its operator settled as `jiguang-sandbox`'s is: beyond loopback, never operator:operator.
  const config: Config = read(() => settleOperator(loadConfig(undefined, { database: ':memory:', ...start })))
  for (const [setting, value] of [
    ['TLS_PORT', config.tlsPort],
    ['METRICS_PORT', config.metricsPort],
  ] as const)
    if (value !== undefined)
      refuse(
        `${setting}: not with mcp --embedded; start the sandbox on its own (${NAME}), then ${NAME} mcp --url`,
      )
  // The log goes to stderr: an MCP client shows it as the server's log.
  const logger = createLogger(config.logLevel, process.stderr)
  const app: SandboxApp = await buildApp(config, { logger })
  const url = await app.listen({ port: config.port, host: config.host }).catch(err => {
    const refusal = listenFailure(err, config.port, config.host)
    if (refusal instanceof StartRefusal) refuse(refusal.message, 1)
    throw err
  })
  logger.info({ url }, `${NAME} (embedded in the MCP server) listening on ${url}`)
  const credentials = credentialsOf(mcp, config.operator, DEFAULT_APP.appKey)
  return {
    session: createSession({ baseUrl: url, credentials, fetch: injectFetch(app) }),
    close: async () => {
      const closing = app.close()
      app.server.closeAllConnections()
      await closing
    },
  }
}

/**
 * Whose credentials the tools carry: the app --app-key and --master-secret name; else the
 * operator's (--operator's, or the embedded sandbox's own), acting on --app-key's app (or
 * `defaultApp`) when a call names none; else the default app's.
 */
function credentialsOf(
  mcp: McpConfig,
  operator: { user: string; password: string } | null | undefined,
  defaultApp?: string,
): Credentials {
  if (mcp.masterSecret !== undefined)
    return {
      kind: 'app',
      appKey: need(mcp.appKey, '--master-secret needs --app-key'),
      masterSecret: mcp.masterSecret,
    }
  if (operator) return { kind: 'operator', ...operator, defaultApp: mcp.appKey ?? defaultApp }
  if (mcp.appKey !== undefined)
    refuse(
      '--app-key needs --master-secret (its credentials), or --operator (the app of a call that names none)',
    )
  return { kind: 'app', ...DEFAULT_APP }
}

const flagOf = (name: string) => `--${SETTINGS[name as SettingName].flag}`

function read<T>(load: () => T): T {
  try {
    return load()
  } catch (err) {
    if (err instanceof ConfigError) refuse(`invalid configuration: ${err.problems.join('; ')}`)
    throw err
  }
}

function need<T>(value: T | undefined, why: string): T {
  return value === undefined ? refuse(why) : value
}

/** A mistake on the command line: one line on stderr, exit 2 (1: the sandbox could not start). */
function refuse(line: string, code = 2): never {
  process.stderr.write(`${NAME} mcp: ${line}\n`)
  process.exit(code)
}
