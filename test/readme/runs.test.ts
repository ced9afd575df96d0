import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { testConfig } from '../../src/config.js'
import { matches, type Segment, shellBlocks } from './blocks.js'
import { runSegments, type SegmentResult } from './run.js'

// The README is the manual: every ```sh block runs as written, in order, in one POSIX shell with
// curl, against a fresh sandbox on a real port (issue 12 §9); its `# → …` lines are checked. The
// blocks reach the sandbox through $SANDBOX, which the README sets to http://127.0.0.1:8080
// unless it is already set: here it is the test server's address. Conventions: blocks.ts.

const README = new URL('../../README.md', import.meta.url)
const readme = readFileSync(README, 'utf8')

let app: SandboxApp
let base: string
beforeAll(async () => {
  app = await buildApp(testConfig())
  await app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})
afterAll(() => app?.close())

const where = (s: Segment) => `README.md block ${s.block}, lines ${s.first}–${s.last}`
const excerpt = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text)

/** What went wrong with one segment, or undefined. */
function failure(r: SegmentResult): string | undefined {
  const { segment: s } = r
  const shown = `${where(s)}:\n${s.code}\n`
  if (r.status === undefined)
    return `${shown}→ the shell stopped here (a command failed or a variable was unset):\n${excerpt(r.stderr)}`
  if (r.status !== 0) return `${shown}→ exit status ${r.status}\n${excerpt(r.stderr)}`
  if (s.expect && !matches(s.expect.pattern, r.stdout))
    return `${shown}→ line ${s.expect.line} shows:\n  ${s.expect.pattern}\nbut it printed:\n  ${excerpt(r.stdout.trim())}${
      r.stderr ? `\nstderr: ${excerpt(r.stderr)}` : ''
    }`
  return undefined
}

describe('the README', () => {
  const { segments, skipped, strays } = shellBlocks(readme)

  it('marks its shell examples ```sh (```sh no-run: shown, not run)', () => {
    expect(strays, 'fences the runner would not see; use ```sh').toEqual([])
    expect(segments.length).toBeGreaterThan(50)
    // Few blocks may be left out, each for a reason the README gives (Docker, the vendors' hosts).
    expect(skipped.length).toBeLessThanOrEqual(6)
  })

  it('runs as written, and prints what it shows', { timeout: 240_000 }, async () => {
    const results = await runSegments(segments, base)
    const failures = results.map(failure).filter(f => f !== undefined)
    // The first failure explains the others (later blocks build on earlier ones).
    expect(failures[0], `${failures.length} of ${results.length} segments failed; the first`).toBeUndefined()
    expect(results.filter(r => r.segment.expect).length).toBeGreaterThan(20)
  })
})
