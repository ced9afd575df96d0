import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The rules of docs/architecture.md that the compiler cannot see: dependencies point one way. Read
// from the source's own imports (type-only ones included), so a change that breaks a rule fails
// here, naming the files.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')

const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter(f => f.endsWith('.ts'))
  .map(f => f.split('\\').join('/'))

/** Every relative import of each file, as src-relative paths of .ts files. */
const graph = new Map<string, string[]>(
  files.map(f => {
    const text = readFileSync(join(SRC, f), 'utf8')
    const specs = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(m => m[1]!)
    const targets = specs
      .map(s => relative(SRC, resolve(SRC, dirname(f), s)).replace(/\.js$/, '.ts'))
      .filter(t => files.includes(t))
    return [f, targets]
  }),
)

/** The top-level folder (or file) of a src-relative path: `sms/fields.ts` → `sms`. */
const area = (f: string) => f.split('/')[0]!.replace(/\.ts$/, '')

/**
 * The features: each folder whose entry file (`index.ts`) declares a Feature (src/http/feature.ts),
 * read from the imports, so a new feature is under the rules below as soon as it has its entry.
 */
const features = files
  .filter(f => f.endsWith('/index.ts') && graph.get(f)!.includes('http/feature.ts'))
  .map(f => f.slice(0, -'/index.ts'.length))
const featureOf = (f: string) => features.find(x => f.startsWith(`${x}/`))

/** The kernel every feature stands on; it hands to features and never imports one. */
const KERNEL = ['http', 'store', 'scheduler', 'events', 'openapi', 'control']

function cycles(edges: Map<string, Iterable<string>>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (n: string) => {
    state.set(n, 'open')
    stack.push(n)
    for (const m of edges.get(n) ?? []) {
      if (state.get(m) === 'open') found.push([...stack.slice(stack.indexOf(m)), m])
      else if (!state.has(m)) visit(m)
    }
    stack.pop()
    state.set(n, 'done')
  }
  for (const n of edges.keys()) if (!state.has(n)) visit(n)
  return found
}

describe('the architecture', () => {
  it('reads the imports of every module', () => {
    expect(files.length).toBeGreaterThan(150)
    expect(graph.get('app.ts')).toContain('config.ts')
  })

  it('has no import circle in src/, type-only imports included', () => {
    expect(cycles(graph).map(c => c.join(' → '))).toEqual([])
  })

  it('has no circle between its folders either: each layer imports only layers below it', () => {
    const folders = new Map<string, Set<string>>()
    for (const [f, targets] of graph) {
      const from = folders.get(area(f)) ?? new Set()
      for (const t of targets) if (area(t) !== area(f)) from.add(area(t))
      folders.set(area(f), from)
    }
    expect(cycles(folders).map(c => c.join(' → '))).toEqual([])
  })

  it('keeps http, the scheduler and the event hub below the control plane', () => {
    const upward = [...graph].flatMap(([f, targets]) =>
      ['http', 'scheduler', 'events', 'store'].includes(area(f))
        ? targets.filter(t => area(t) === 'sandbox').map(t => `${f} → ${t}`)
        : [],
    )
    expect(upward).toEqual([])
  })

  it('finds the features by their entry files', () => {
    expect(features).toEqual(expect.arrayContaining(['push/plans', 'sms/templates', 'sms/signs']))
  })

  it("lets a feature import another feature's entry file only (index.ts), never its inside", () => {
    const inside = [...graph].flatMap(([f, targets]) => {
      const own = featureOf(f)
      if (!own) return []
      return targets
        .filter(t => {
          const other = featureOf(t)
          return other !== undefined && other !== own && t !== `${other}/index.ts`
        })
        .map(t => `${f} → ${t}`)
    })
    expect(inside).toEqual([])
  })

  it('keeps the kernel below the features: it imports none of them', () => {
    const upward = [...graph].flatMap(([f, targets]) =>
      KERNEL.includes(area(f)) ? targets.filter(t => featureOf(t)).map(t => `${f} → ${t}`) : [],
    )
    expect(upward).toEqual([])
  })

  it('has a row in docs/architecture.md for every feature', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'architecture.md'), 'utf8')
    expect(features.filter(x => !doc.includes(`| \`src/${x}/\``))).toEqual([])
  })

  it('has no folder of more than 20 files', () => {
    const counts = new Map<string, number>()
    for (const f of readdirSync(SRC, { recursive: true }) as string[]) {
      const folder = dirname(f)
      if (/\.[a-z]+$/.test(f)) counts.set(folder, (counts.get(folder) ?? 0) + 1)
    }
    expect([...counts].filter(([, n]) => n > 20)).toEqual([])
  })
})
