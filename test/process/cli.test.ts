import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadConfig, SETTINGS, type Setting, type SettingName } from '../../src/config.js'
import { parseCommandLine, usage } from '../../src/process/cli.js'
import { serverBuild } from '../server-build.js'

// The command line `jiguang-sandbox` (bin: dist/server.js): a flag for every row of the settings
// table, --help and --version, and one line with exit 2 for any mistake.

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}
const rows = Object.entries(SETTINGS) as Array<[SettingName, Setting<unknown>]>
const isSwitch = (s: Setting<unknown>) => typeof s.schema.safeParse(undefined).data === 'boolean'

describe('parseCommandLine', () => {
  it.each(rows)('has a flag for %s, as --flag value and --flag=value', (name, s) => {
    expect(parseCommandLine([`--${s.flag}`, 'v 1'])).toEqual({ start: { [name]: 'v 1' } })
    expect(parseCommandLine([`--${s.flag}=a=b`])).toEqual({ start: { [name]: 'a=b' } })
  })

  it('takes a true-or-false setting alone, negated, or with a value', () => {
    const [name, s] = rows.find(([, s]) => isSwitch(s))!
    expect(parseCommandLine([`--${s.flag}`])).toEqual({ start: { [name]: 'true' } })
    expect(parseCommandLine([`--${s.flag}`, '--port', '1'])).toEqual({ start: { [name]: 'true', port: '1' } })
    expect(parseCommandLine([`--no-${s.flag}`])).toEqual({ start: { [name]: 'false' } })
    expect(parseCommandLine([`--${s.flag}`, 'false'])).toEqual({ start: { [name]: 'false' } })
    expect(parseCommandLine([`--no-${s.flag}=true`])).toEqual({ refuse: `--no-${s.flag} takes no value` })
  })

  it('gives values that loadConfig reads over the environment: a flag beats its variable', () => {
    const command = parseCommandLine(['--port', '9000', '--db', ':memory:', '--no-auto-provision'])
    if (!('start' in command)) throw new Error('not a start')
    const config = loadConfig({ PORT: '7000', AUTO_PROVISION: 'true', HOST: '0.0.0.0' }, command.start)
    expect(config).toMatchObject({ port: 9000, database: ':memory:', autoProvision: false, host: '0.0.0.0' })
  })

  it.each([
    [['--bogus'], 'unknown flag --bogus (see --help)'],
    [['--no-port'], 'unknown flag --no-port (see --help)'],
    [['--port'], '--port needs a value'],
    [['--port', '--db', 'x'], '--port needs a value'],
    [['serve'], 'unexpected argument "serve" (flags start with --; see --help)'],
    [['-p', '1'], 'unexpected argument "-p" (flags start with --; see --help)'],
  ])('refuses %j in one line', (argv, line) => {
    expect(parseCommandLine(argv)).toEqual({ refuse: line })
  })

  it('--help lists every setting with its flag, its variable and its default; --version the version', () => {
    expect(parseCommandLine(['--port', '1', '--help'])).toEqual({ print: usage() })
    expect(parseCommandLine(['-h'])).toEqual({ print: usage() })
    expect(parseCommandLine(['--version'])).toEqual({ print: `${version}\n` })
    const help = usage()
    for (const [, s] of rows) {
      const line = help.split('\n').findIndex(l => {
        const [flag, ...rest] = l.trim().split(/\s+/)
        return (flag === `--${s.flag}` || flag === `--[no-]${s.flag}`) && rest.at(-1) === s.env
      })
      expect(line, s.flag).toBeGreaterThan(0)
      const shown = s.schema.safeParse(undefined).data
      const described = help.split('\n')[line + 1]!
      expect(described).toContain(s.describe)
      if (shown !== undefined && !(Array.isArray(shown) && shown.length === 0))
        expect(described).toContain(`(default ${shown})`)
    }
    expect(help).toContain('--[no-]auto-provision')
  })
})

/** The server's build with these arguments, as `npx jiguang-sandbox …` runs it. */
function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [serverBuild().server, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', chunk => {
    out += chunk
    // A server that started: its start lines (listening, then the operator) are all this test needs.
    if (out.endsWith('\n') && out.includes('listening on') && out.includes('"operator')) child.kill('SIGTERM')
  })
  child.stderr.on('data', chunk => {
    err += chunk
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  return new Promise(resolve =>
    child.once('close', code => {
      clearTimeout(timer)
      resolve({ code, out, err })
    }),
  )
}

describe('the process', { timeout: 30_000 }, () => {
  it('exits 2 with one line on stderr for a flag it does not know or a value it cannot use', async () => {
    for (const [args, env, line] of [
      [['--prot', '8080'], {}, 'jiguang-sandbox: unknown flag --prot (see --help)'],
      [
        ['--port', '70000'],
        { PORT: '8080' },
        'jiguang-sandbox: invalid configuration: --port: Too big: expected number to be <=65535',
      ],
      [[], { AUTO_PROVISION: 'yes' }, /^jiguang-sandbox: invalid configuration: AUTO_PROVISION: /],
    ] as const) {
      const { code, out, err } = await run([...args], env)
      expect(code).toBe(2)
      expect(out).toBe('')
      expect(err.trimEnd().split('\n')).toHaveLength(1)
      if (typeof line === 'string') expect(err).toBe(`${line}\n`)
      else expect(err).toMatch(line)
    }
  })

  it('prints its version and its help on stdout, exit 0', async () => {
    expect(await run(['--version'])).toEqual({ code: 0, out: `${version}\n`, err: '' })
    expect(await run(['--help'])).toEqual({ code: 0, out: usage(), err: '' })
  })

  it('writes the start lines whatever the log level: version, URLs, default credentials, the operator', async () => {
    const { out, err } = await run(['--port', '0', '--db', ':memory:', '--log-level', 'silent'])
    expect(err).toBe('')
    const lines = out.trimEnd().split('\n')
    // The listening line, then who the operator is.
    expect(lines).toHaveLength(2)
    const line = JSON.parse(lines[0]!) as Record<string, string>
    expect(JSON.parse(lines[1]!)).toMatchObject({
      operator: 'operator',
      operatorFrom: 'loopback default',
      msg: 'operator operator:operator, the default while HOST 127.0.0.1 is loopback; set SANDBOX_OPERATOR before listening beyond this machine',
    })
    const url = line.url!
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(line).toMatchObject({
      version,
      ui: `${url}/_sandbox/ui/`,
      docs: `${url}/_sandbox/docs`,
      appKey: '7d431e42dfa6a6d693ac2d04',
      masterSecret: '5e987ac6d2e04d95a9d8f0d1',
    })
    expect(line.msg).toBe(
      `jiguang-sandbox listening on ${url} (version ${version}): JSMS ${url}/v1, JPush ${url}/v3, ` +
        `web UI ${url}/_sandbox/ui/, API docs ${url}/_sandbox/docs; ` +
        'default app 7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1',
    )
  })
})
