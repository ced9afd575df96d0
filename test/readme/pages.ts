import { readFileSync } from 'node:fs'

// The manual's pages, in the tour's order: the README, then docs/README.md's table of pages (the
// order that page documents, and pages.test.ts holds it to). `noRun` is how many ```sh no-run
// blocks the page may show without running, each for a reason the page gives (Docker, the
// vendors' hostnames, the benchmarks, the suite itself): a new one is a deliberate change here.

export interface Page {
  /** Path from the repository's root. */
  path: string
  noRun: number
}

export const PAGES: readonly Page[] = [
  { path: 'README.md', noRun: 1 },
  { path: 'docs/README.md', noRun: 0 },
  { path: 'docs/sms.md', noRun: 0 },
  { path: 'docs/push.md', noRun: 0 },
  { path: 'docs/jpush-wire.md', noRun: 0 },
  { path: 'docs/control-plane.md', noRun: 1 },
  { path: 'docs/web-ui.md', noRun: 0 },
  { path: 'docs/docker-and-tls.md', noRun: 5 },
  { path: 'docs/testing.md', noRun: 1 },
  { path: 'docs/agents.md', noRun: 2 },
  { path: 'docs/sdk-setup.md', noRun: 1 },
  { path: 'docs/troubleshooting.md', noRun: 2 },
  { path: 'docs/advisor.md', noRun: 0 },
  { path: 'docs/fidelity.md', noRun: 0 },
  { path: 'docs/configuration.md', noRun: 1 },
  { path: 'docs/performance.md', noRun: 9 },
  { path: 'docs/reliability.md', noRun: 3 },
  { path: 'docs/architecture.md', noRun: 0 },
]

export const REPO = new URL('../../', import.meta.url)

export function readPage(path: string): string {
  return readFileSync(new URL(path, REPO), 'utf8')
}

/**
 * The section of `markdown` under the heading whose text is `title` (at any level), up to the
 * next heading of the same or a higher level; fenced code is not mistaken for headings.
 */
export function section(markdown: string, title: string): string {
  const lines = markdown.split('\n')
  let start = -1
  let level = 0
  let fenced = false
  for (let i = 0; i < lines.length; i++) {
    if (/^```/.test(lines[i]!)) fenced = !fenced
    const heading = fenced ? null : /^(#+) (.*)$/.exec(lines[i]!)
    if (!heading) continue
    if (start < 0 && heading[2]!.trim() === title) {
      start = i
      level = heading[1]!.length
    } else if (start >= 0 && heading[1]!.length <= level) {
      return lines.slice(start, i).join('\n')
    }
  }
  if (start < 0) throw new Error(`no heading "${title}"`)
  return lines.slice(start).join('\n')
}
