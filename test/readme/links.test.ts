import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { PAGES, REPO, readPage } from './pages.js'

// The manual links, it does not cite: every relative link of the README and of docs/ reaches a
// file or folder of the repository (never one beside it), every `#anchor` a heading of its page,
// and every `*.md` the text names is a page the repository has (issue 18 §6: no spec files that
// only the authors' machines hold).

const root = fileURLToPath(REPO)

/** The text a reader sees as prose: fenced code removed (line numbers kept), inline code blanked. */
function prose(markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').map(line => {
    if (/^```/.test(line)) {
      fenced = !fenced
      return ''
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '``')
  })
}

/** `[text](target)` and `![alt](target)`, with the line each is on. */
function links(markdown: string): Array<{ line: number; target: string }> {
  return prose(markdown).flatMap((text, i) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)].map(m => ({ line: i + 1, target: m[1]! })),
  )
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as dashes. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const out = new Set<string>()
  let fenced = false
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#+ (.*)$/.exec(line)
    if (!heading) continue
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    out.add(n === 0 ? slug : `${slug}-${n}`)
  }
  return out
}

/** Every markdown file of the repository, by name (dependencies and git's own folder aside). */
function markdownNames(): Set<string> {
  const names = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue
      if (entry.isDirectory()) walk(join(dir, entry.name))
      else if (entry.name.endsWith('.md')) names.add(entry.name)
    }
  }
  walk(root)
  return names
}

describe('the manual’s links', () => {
  for (const { path } of PAGES) {
    it(`${path}: every relative link reaches the repository, every anchor a heading`, () => {
      const broken: string[] = []
      for (const { line, target } of links(readPage(path))) {
        if (/^[a-z]+:/i.test(target)) continue // https:, mailto:
        const [file, anchor] = target.split('#') as [string, string | undefined]
        const resolved = file === '' ? join(root, path) : join(root, dirname(path), decodeURI(file))
        const where = `${path}:${line} → ${target}`
        if (relative(root, resolved).startsWith('..')) broken.push(`${where}: outside the repository`)
        else if (!existsSync(resolved)) broken.push(`${where}: no such file`)
        else if (anchor !== undefined) {
          if (!resolved.endsWith('.md')) broken.push(`${where}: an anchor into a file that is not markdown`)
          else if (!anchors(readPage(relative(root, resolved))).has(anchor))
            broken.push(`${where}: no such heading`)
        }
      }
      expect(broken).toEqual([])
    })
  }

  it('names only markdown files the repository has', () => {
    const names = markdownNames()
    const cited = PAGES.flatMap(({ path }) =>
      readPage(path)
        .split('\n')
        .flatMap((text, i) =>
          [...text.matchAll(/[\w.-]+\.md\b/g)].map(m => ({ where: `${path}:${i + 1}`, name: m[0] })),
        ),
    )
    expect(cited.length).toBeGreaterThan(10)
    expect(cited.filter(c => !names.has(basename(c.name)))).toEqual([])
  })
})
