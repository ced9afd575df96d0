import { describe, expect, it } from 'vitest'
import { MCP_SETTINGS } from '../../src/config.js'
import { TOOLS } from '../../src/mcp/tools/index.js'
import { parseCommandLine } from '../../src/process/cli.js'
import { shellBlocks } from '../readme/blocks.js'
import { readPage, section } from '../readme/pages.js'

// docs/agents.md stays true as the code moves: every setting of `jiguang-sandbox mcp` in its table,
// every tool with an example call that runs (test/readme runs the page) and the answer it shows.
// And the command line: `mcp` takes its own flags and, for --embedded, the sandbox's.

const page = readPage('docs/agents.md')

describe('docs/agents.md', () => {
  it('documents every setting of `jiguang-sandbox mcp`, with its flag', () => {
    const table = section(page, 'Settings')
    for (const s of Object.values(MCP_SETTINGS))
      expect(table, s.env).toContain(`| \`${s.env}\` | \`--${s.flag}\` |`)
  })

  it('shows every tool under a heading of its own, called in a block that runs, with its answer', () => {
    const tools = section(page, 'The tools')
    const headings = [...tools.matchAll(/^### (.+)$/gm)].map(m => m[1]!)
    const run = shellBlocks(tools).segments
    for (const { name } of TOOLS) {
      expect(
        headings.some(h => h.includes(`\`${name}\``)),
        name,
      ).toBe(true)
      const called = run.filter(s => s.code.includes(`call ${name} `) || s.code.includes(`"name":"${name}"`))
      expect(called.length, name).toBeGreaterThan(0)
      expect(
        called.some(s => s.expect?.pattern.includes('"result"')),
        name,
      ).toBe(true)
    }
  })
})

describe('the command line of `jiguang-sandbox mcp`', () => {
  it('reads its own flags, and the sandbox’s for --embedded; --operator is both', () => {
    expect(parseCommandLine(['mcp', '--embedded', '--port', '0', '--operator=a:b', '--db', 'x.db'])).toEqual({
      mcp: {
        own: { embedded: 'true', operator: 'a:b' },
        start: { port: '0', operator: 'a:b', database: 'x.db' },
      },
    })
    expect(
      parseCommandLine(['mcp', '--url', 'http://h:1', '--app-key', 'k', '--master-secret', 's']),
    ).toEqual({
      mcp: { own: { url: 'http://h:1', appKey: 'k', masterSecret: 's' }, start: {} },
    })
    expect(parseCommandLine(['mcp', '--no-embedded', '--no-auto-provision'])).toEqual({
      mcp: { own: { embedded: 'false' }, start: { autoProvision: 'false' } },
    })
    expect(parseCommandLine(['mcp', '--bogus'])).toEqual({ refuse: 'unknown flag --bogus (see mcp --help)' })
    expect(parseCommandLine(['mcp', 'extra'])).toEqual({
      refuse: 'unexpected argument "extra" (flags start with --; see mcp --help)',
    })
    expect(parseCommandLine(['mcp', '--url'])).toEqual({ refuse: '--url needs a value' })
    // `mcp` is a subcommand only in first place.
    expect(parseCommandLine(['--port', '1', 'mcp'])).toEqual({
      refuse: 'unexpected argument "mcp" (flags start with --; see --help)',
    })
  })
})
