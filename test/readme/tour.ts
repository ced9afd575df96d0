import type { AddressInfo } from 'node:net'
import { buildApp, type SandboxApp } from '../../src/app.js'
import { testConfig } from '../../src/config.js'
import { matches, type Segment, shellBlocks } from './blocks.js'
import { PAGES, readPage } from './pages.js'
import { runSegments, type SegmentResult } from './run.js'

// Running the manual's pages: a sandbox as a reader runs it, a page's segments against it, and
// what went wrong said with the page's own line numbers.

/** Every page of the tour, in order, with its shell blocks. */
export const tour = PAGES.map(page => ({ ...page, ...shellBlocks(readPage(page.path)) }))

/** A sandbox on a loopback port, as a reader runs it. */
export async function startSandbox(): Promise<{ app: SandboxApp; url: string }> {
  const app = await buildApp(testConfig())
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` }
}

const excerpt = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}… (${text.length} chars)` : text)

/** What went wrong with one segment of `page`, or undefined. */
export function failure(page: string, r: SegmentResult): string | undefined {
  const { segment: s } = r
  const shown = `${page} block ${s.block}, lines ${s.first}–${s.last}:\n${s.code}\n`
  if (r.status === undefined)
    return `${shown}→ the shell stopped here (a command failed or a variable was unset):\n${excerpt(r.stderr)}`
  if (r.status !== 0) return `${shown}→ exit status ${r.status}\n${excerpt(r.stderr)}`
  if (s.expect && !matches(s.expect.pattern, r.stdout))
    return `${shown}→ line ${s.expect.line} shows:\n  ${s.expect.pattern}\nbut it printed:\n  ${excerpt(r.stdout.trim())}${
      r.stderr ? `\nstderr: ${excerpt(r.stderr)}` : ''
    }`
  return undefined
}

/** Runs one page's segments against `url`; the first failure, which explains the later ones. */
export async function runPage(path: string, segments: Segment[], url: string): Promise<string | undefined> {
  const results = await runSegments(segments, url)
  const failures = results.map(r => failure(path, r)).filter(f => f !== undefined)
  return failures.length === 0
    ? undefined
    : `${failures.length} of ${results.length} segments failed; the first: ${failures[0]}`
}
