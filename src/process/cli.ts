import { SETTINGS, type Setting, type SettingName } from '../config.js'
import { NAME, VERSION } from '../package.js'

// The command line of `jiguang-sandbox` (`npx jiguang-sandbox`, `node dist/server.js`): a flag for
// every row of the settings table (config.ts), which beats the row's environment variable, and
// --help generated from the same rows. Only the words are read here; loadConfig reads the values,
// so a bad value is refused the same way whether it came from a flag or from the environment.

/** What the command line asks for. */
export type Command =
  /** Start, with these values by setting name (the flags given). */
  | { start: Partial<Record<SettingName, string>> }
  /** Print this on stdout and exit 0 (--help, --version). */
  | { print: string }
  /** A mistake: this one line on stderr, exit 2. */
  | { refuse: string }

const rows = Object.entries(SETTINGS) as Array<[SettingName, Setting<unknown>]>
const byFlag = new Map(rows.map(([name, s]) => [s.flag, { name, s }]))

/** A setting whose value is true or false takes `--flag` and `--no-flag` as well as a value. */
const isSwitch = (s: Setting<unknown>) => typeof s.schema.safeParse(undefined).data === 'boolean'

export function parseCommandLine(argv: readonly string[]): Command {
  const start: Partial<Record<SettingName, string>> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-h' || arg === '--help') return { print: usage() }
    if (arg === '--version') return { print: `${VERSION}\n` }
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(arg)
    if (!m) return { refuse: `unexpected argument "${arg}" (flags start with --; see --help)` }
    const [, word, inline] = m as unknown as [string, string, string | undefined]
    const negated = word.startsWith('no-') && byFlag.get(word.slice(3))
    const found = byFlag.get(word) ?? (negated && isSwitch(negated.s) ? negated : undefined)
    if (!found) return { refuse: `unknown flag --${word} (see --help)` }
    if (found === negated) {
      if (inline !== undefined) return { refuse: `--${word} takes no value` }
      start[found.name] = 'false'
      continue
    }
    const next = argv[i + 1]
    if (inline !== undefined) start[found.name] = inline
    else if (isSwitch(found.s) && (next === undefined || next.startsWith('-'))) start[found.name] = 'true'
    else if (next === undefined || next.startsWith('--')) return { refuse: `--${word} needs a value` }
    else start[found.name] = argv[++i]!
  }
  return { start }
}

/** --help: every setting with its flag, its environment variable and its default. */
export function usage(): string {
  const lines = rows.map(([, s]) => {
    const flag = isSwitch(s) ? `--[no-]${s.flag}` : `--${s.flag} <value>`
    const shown = defaultOf(s)
    return [flag, s.env, shown === undefined ? s.describe : `${s.describe} (default ${shown})`] as const
  })
  lines.push(['-h, --help', '', 'this text'], ['--version', '', 'the version'])
  const width = Math.max(...lines.map(l => l[0].length))
  return [
    `${NAME} ${VERSION}: a local emulator of the JSMS SMS REST API v1 and the JPush REST API v3`,
    '',
    `Usage: ${NAME} [flags]`,
    '',
    'Each flag has an environment variable twin (beside it); a flag given beats its variable.',
    '',
    ...lines.map(([flag, env, text]) => `  ${flag.padEnd(width)}  ${env}\n      ${text}`),
    '',
  ].join('\n')
}

function defaultOf(s: Setting<unknown>): string | undefined {
  const value = s.schema.safeParse(undefined).data
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined
  return Array.isArray(value) ? value.join(',') : String(value)
}
