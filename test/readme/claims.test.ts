import { describe, expect, it } from 'vitest'
import { usage } from '../../src/process/cli.js'
import { readPage } from './pages.js'

// What the manual says is missing must be missing (issue 29, point 14: fidelity.md listed images,
// push templates, push plans and test devices as "not emulated" while each had its routes and
// tests), and what --help prints must be readable (a default printed as `[object Object]`).

/** The page's sentences, fenced code left out: a paragraph or a list item cut at each full stop. */
function sentences(markdown: string): string[] {
  let fenced = false
  const units: string[][] = [[]]
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) fenced = !fenced
    if (fenced || /^```/.test(line)) continue
    if (line.trim() === '' || /^\s*[-*] /.test(line)) units.push([])
    units.at(-1)!.push(line.trim())
  }
  return units.flatMap(u => u.join(' ').split(/\.\s+(?=[A-Z*`(])/))
}

// Each feature the sandbox emulates (its routes and tests are in src/push and test/push), named by
// the vendor's path for it.
const EMULATED: [feature: RegExp, route: string][] = [
  [/\bimages?\b/i, '/v3/images'],
  [/\bpush templates?\b/i, '/v3/push/template'],
  [/\bpush plans?\b|\bplans?\b/i, '/v3/push_plan/…'],
  [/\btest devices?\b/i, '/v3/test/model/…'],
  [/\bSM2\b/, '/v3/push'],
]

describe('what the manual says is not emulated', () => {
  it('names no feature the sandbox emulates (fidelity.md)', () => {
    const page = readPage('docs/fidelity.md')
    const wrong = sentences(page)
      .filter(s => /\bnot emulated\b/i.test(s))
      .flatMap(s => EMULATED.filter(([feature]) => feature.test(s)).map(([, route]) => ({ route, s })))
    expect(wrong).toEqual([])
  })

  it('--help prints every default as text, never [object Object]', () => {
    expect(usage()).not.toContain('[object Object]')
  })
})
