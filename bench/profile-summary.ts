// `npx tsx bench/profile-summary.ts prof/<file>.cpuprofile [N]`: what a V8 CPU profile (written by
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof") says, as text: the N functions with the most
// self time, the N with the most inclusive time, and the inclusive share of each source file or
// package; idle time left out. SKIP_MS=2000 leaves out the first 2 s (start-up, warm-up).
import { readFileSync } from 'node:fs'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

const [file, topArg] = process.argv.slice(2)
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [N]')
const top = Number(topArg ?? 30)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(profile.nodes.map(n => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

const skipUs = Number(process.env.SKIP_MS ?? 0) * 1000
const self = new Map<number, number>()
let elapsed = 0
profile.samples.forEach((id, i) => {
  elapsed += profile.timeDeltas[i] ?? 0
  if (elapsed >= skipUs) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})

const where = (n: Node) => {
  const url = n.callFrame.url.replace(/^file:\/\//, '')
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]
  if (pkg) return pkg
  const own = /\/(dist|src)\/(.*)$/.exec(url)
  if (own) return own[2]!
  return url === '' ? '(native)' : url.startsWith('node:') ? url : url.split('/').slice(-2).join('/')
}
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${where(n)}:${n.callFrame.lineNumber + 1}`

let total = 0
const idle = new Set(['(idle)', '(program)'])
const selfByLabel = new Map<string, number>()
const inclusiveByPlace = new Map<string, number>()
const inclusiveByLabel = new Map<string, number>()
for (const [id, us] of self) {
  const n = byId.get(id)!
  if (idle.has(n.callFrame.functionName)) continue
  total += us
  const l = label(n)
  selfByLabel.set(l, (selfByLabel.get(l) ?? 0) + us)
  // Inclusive: each place on the stack counts once per sample.
  const seen = new Set<string>()
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const node = byId.get(cur)!
    for (const [key, map] of [
      [where(node), inclusiveByPlace],
      [label(node), inclusiveByLabel],
    ] as const) {
      if (seen.has(key)) continue
      seen.add(key)
      map.set(key, (map.get(key) ?? 0) + us)
    }
  }
}
const pct = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
console.log(`busy ${(total / 1000).toFixed(0)} ms (idle left out)\n\nself time:`)
for (const [l, us] of sorted(selfByLabel)) console.log(`${pct(us)}  ${l}`)
console.log('\ninclusive, by function:')
for (const [l, us] of sorted(inclusiveByLabel)) console.log(`${pct(us)}  ${l}`)
console.log('\ninclusive, by file or package:')
for (const [p, us] of sorted(inclusiveByPlace)) console.log(`${pct(us)}  ${p}`)
