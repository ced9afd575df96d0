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

/** Every relative import of each file, as paths relative to src/ (`../client/…` for the client's). */
const imports = new Map<string, string[]>(
  files.map(f => {
    const text = readFileSync(join(SRC, f), 'utf8')
    const specs = [...text.matchAll(/\b(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map(m => m[1]!)
    return [f, specs.map(s => relative(SRC, resolve(SRC, dirname(f), s)).replace(/\.js$/, '.ts'))]
  }),
)
/** The same, kept to the modules of src/: the graph the rules below read. */
const graph = new Map<string, string[]>(
  [...imports].map(([f, targets]) => [f, targets.filter(t => files.includes(t))]),
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

/** What cuts across the features (docs/architecture.md "Across"): above them, below app.ts. */
const ACROSS = 'across'

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
  it('reads the imports of every module: each names a module of src/, or the client beside it', () => {
    const unread = [...imports].flatMap(([f, targets]) =>
      targets.filter(t => !files.includes(t) && !t.startsWith('../client/')).map(t => `${f} → ${t}`),
    )
    expect(unread).toEqual([])
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
        ? targets.filter(t => area(t) === 'sandbox' || area(t) === ACROSS).map(t => `${f} → ${t}`)
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

  it('keeps what cuts across the features above them: neither they nor the kernel import it', () => {
    const upward = [...graph].flatMap(([f, targets]) =>
      featureOf(f) || KERNEL.includes(area(f))
        ? targets.filter(t => area(t) === ACROSS).map(t => `${f} → ${t}`)
        : [],
    )
    expect(upward).toEqual([])
  })

  it("lets what cuts across the features import a feature's entry file only", () => {
    const inside = [...graph].flatMap(([f, targets]) =>
      area(f) === ACROSS
        ? targets
            .filter(t => {
              const feature = featureOf(t)
              return feature !== undefined && t !== `${feature}/index.ts`
            })
            .map(t => `${f} → ${t}`)
        : [],
    )
    expect(inside).toEqual([])
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
