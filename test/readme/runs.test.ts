import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PAGES, readPage, section } from './pages.js'
import { runPage, startSandbox, tour } from './tour.js'

// The manual runs: every ```sh block of the README and of each docs/ page runs as written, in
// order, in one POSIX shell with curl, against a fresh sandbox of the page's own on a real port
// (issue 12 §9, issue 18 §6); its `# → …` lines are checked. Each page is self-contained: its
// first block sets $SANDBOX unless it is already set, and here it is the test server's address.
// Conventions: blocks.ts; the order and the allowed no-run blocks: pages.ts; the whole tour twice
// against one sandbox: twice.test.ts.

describe('the manual', () => {
  it('is every page of docs/, in the order docs/README.md gives, after the README', () => {
    const docs = readdirSync(new URL('../../docs/', import.meta.url)).filter(f => f.endsWith('.md'))
    expect(PAGES.map(p => p.path).sort()).toEqual(['README.md', ...docs.map(f => `docs/${f}`)].sort())
    const index = readPage('docs/README.md')
    const table = index.slice(0, index.indexOf('\n## ')) // the table of pages, before the first section
    const order = [...table.matchAll(/^\| \[[^\]]+\]\(([\w-]+\.md)\)/gm)].map(m => `docs/${m[1]}`)
    expect(['README.md', ...order]).toEqual(PAGES.map(p => p.path))
    expect(section(index, 'Running the examples')).toContain('in the order of the table above')
  })

  it('marks its shell examples ```sh (```sh no-run: shown, not run, only where pages.ts allows)', () => {
    for (const page of tour) {
      expect(page.strays, `${page.path}: fences the runner would not see; use \`\`\`sh`).toEqual([])
      expect(page.skipped.length, `${page.path}: blocks marked no-run`).toBe(page.noRun)
    }
    const segments = tour.flatMap(p => p.segments)
    expect(segments.length).toBeGreaterThan(50)
    expect(segments.filter(s => s.expect).length).toBeGreaterThan(20)
  })

  for (const page of tour.filter(p => p.segments.length > 0)) {
    it(`${page.path} runs as written on a fresh sandbox, and prints what it shows`, {
      timeout: 120_000,
    }, async () => {
      const { app, url } = await startSandbox()
      try {
        expect(await runPage(page.path, page.segments, url)).toBeUndefined()
      } finally {
        await app.close()
      }
    })
  }
})
