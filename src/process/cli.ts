import { MCP_SETTINGS, type McpSettingName, SETTINGS, type Setting, type SettingName } from '../config.js'
import { NAME, VERSION } from '../package.js'

// The command line of `jiguang-sandbox` (`npx jiguang-sandbox`, `node dist/server.js`): a flag for
// every row of the settings table (config.ts), which beats the row's environment variable, and
// --help generated from the same rows. Only the words are read here; loadConfig reads the values,
// so a bad value is refused the same way whether it came from a flag or from the environment.

/** What the command line asks for. */
export type Command =
  /** Start, with these values by setting name (the flags given). */
  | { start: Partial<Record<SettingName, string>> }
  /**
   * `jiguang-sandbox mcp`: the MCP server on stdin and stdout (src/mcp/stdio.ts), with its own
   * settings and, for --embedded, the sandbox's (--operator is both).
   */
  | { mcp: { own: Partial<Record<McpSettingName, string>>; start: Partial<Record<SettingName, string>> } }
  /** Print this on stdout and exit 0 (--help, --version). */
  | { print: string }
  /** A mistake: this one line on stderr, exit 2. */
  | { refuse: string }

const rows = Object.entries(SETTINGS) as Array<[SettingName, Setting<unknown>]>
const mcpRows = Object.entries(MCP_SETTINGS) as Array<[McpSettingName, Setting<unknown>]>
type Flags = Map<string, { name: string; s: Setting<unknown> }>
const flagsOf = (table: Array<[string, Setting<unknown>]>): Flags =>
  new Map(table.map(([name, s]) => [s.flag, { name, s }]))
const byFlag = flagsOf(rows)
const byMcpFlag = flagsOf(mcpRows)

/** A setting whose value is true or false takes `--flag` and `--no-flag` as well as a value. */
const isSwitch = (s: Setting<unknown>) => typeof s.schema.safeParse(undefined).data === 'boolean'

export function parseCommandLine(argv: readonly string[]): Command {
  if (argv[0] === 'mcp') return parseMcp(argv.slice(1))
  const start: Partial<Record<SettingName, string>> = {}
  const problem = readFlags(argv, [{ flags: byFlag, into: start }], usage, '--help')
  return typeof problem === 'object' ? problem : { start }
}

/** `mcp`'s flags: its own (MCP_SETTINGS), and the sandbox's for --embedded; a flag of both goes to both. */
function parseMcp(argv: readonly string[]): Command {
  const own: Partial<Record<McpSettingName, string>> = {}
  const start: Partial<Record<SettingName, string>> = {}
  const tables = [
    { flags: byMcpFlag, into: own },
    { flags: byFlag, into: start },
  ]
  const problem = readFlags(argv, tables, mcpUsage, 'mcp --help')
  return typeof problem === 'object' ? problem : { mcp: { own, start } }
}

/**
 * Reads `--flag value`, `--flag=value`, a switch alone or `--no-switch` into the table(s) that
 * know the flag; answers what to print or refuse instead, if anything.
 */
function readFlags(
  argv: readonly string[],
  tables: ReadonlyArray<{ flags: Flags; into: Record<string, string> }>,
  help: () => string,
  helpName: string,
): Command | undefined {
  const lookup = (word: string) => tables.filter(t => t.flags.has(word))
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') return { print: help() }
    if (arg === '--version') return { print: `${VERSION}\n` }
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(arg)
    if (!m) return { refuse: `unexpected argument "${arg}" (flags start with --; see ${helpName})` }
    const [, word, inline] = m as unknown as [string, string, string | undefined]
    const found = lookup(word)
    const negated =
      found.length === 0 && word.startsWith('no-')
        ? lookup(word.slice(3)).filter(t => isSwitch(t.flags.get(word.slice(3))!.s))
        : []
    if (negated.length > 0) {
      if (inline !== undefined) return { refuse: `--${word} takes no value` }
      for (const t of negated) t.into[t.flags.get(word.slice(3))!.name] = 'false'
      continue
    }
    if (found.length === 0) return { refuse: `unknown flag --${word} (see ${helpName})` }
    const { s } = found[0]!.flags.get(word)!
    const next = argv[i + 1]
    let value: string
    if (inline !== undefined) value = inline
    else if (isSwitch(s) && (next === undefined || next.startsWith('-'))) value = 'true'
    else if (next === undefined || next.startsWith('--')) return { refuse: `--${word} needs a value` }
    else value = argv[++i]!
    for (const t of found) t.into[t.flags.get(word)!.name] = value
  }
  return undefined
}

/** --help: every setting with its flag, its environment variable and its default. */
export function usage(): string {
  return [
    `${NAME} ${VERSION}: a local emulator of the JSMS SMS REST API v1 and the JPush REST API v3`,
    '',
    `Usage: ${NAME} [flags]`,
    `       ${NAME} mcp [flags]   the MCP server for coding agents, on stdio (see mcp --help)`,
    '',
    'Each flag has an environment variable twin (beside it); a flag given beats its variable.',
    '',
    ...flagLines(rows),
    '',
  ].join('\n')
}

/** `mcp --help`: its own flags, then where the sandbox's are. */
export function mcpUsage(): string {
  return [
    `${NAME} mcp: the sandbox's tools for a coding agent, as an MCP server on stdin and stdout`,
    '',
    `Usage: ${NAME} mcp [--url <url>] [--app-key <appKey> --master-secret <secret> | --operator <user:password>]`,
    `       ${NAME} mcp --embedded [any flag of \`${NAME} --help\`]`,
    '',
    "Without credentials the tools act as the default app; with --embedded, as the sandbox's operator.",
    'Each flag has an environment variable twin (beside it); a flag given beats its variable.',
    '',
    ...flagLines(mcpRows),
    '',
  ].join('\n')
}

/** Each setting of `table` with its flag, its environment variable and its default; then -h and --version. */
function flagLines(table: Array<[string, Setting<unknown>]>): string[] {
  const lines = table.map(([, s]) => {
    const flag = isSwitch(s) ? `--[no-]${s.flag}` : `--${s.flag} <value>`
    const shown = defaultOf(s)
    return [flag, s.env, shown === undefined ? s.describe : `${s.describe} (default ${shown})`] as const
  })
  lines.push(['-h, --help', '', 'this text'], ['--version', '', 'the version'])
  const width = Math.max(...lines.map(l => l[0].length))
  return lines.map(([flag, env, text]) => `  ${flag.padEnd(width)}  ${env}\n      ${text}`)
}

function defaultOf(s: Setting<unknown>): string | undefined {
  const value = s.schema.safeParse(undefined).data
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined
  return Array.isArray(value) ? value.join(',') : String(value)
}
