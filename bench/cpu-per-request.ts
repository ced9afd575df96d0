// `npx tsx bench/cpu-per-request.ts`: rounds of one scenario with the CPU time each server spent
// per request (from /proc), a figure far less noisy than req/s on a shared machine. The servers
// run side by side and take turns, round after round (in reverse order every other round), so they
// see the same machine load:
// - the product (dist/server.js, or BENCH_SERVER);
// - with BASE=/tmp/old/dist/server.js, an older build too (a worktree of an older commit, built);
// - with CEILING=1, ceiling (b) (bare Fastify POST + Basic + JSON), for the ratios;
// - with JOURNAL_AB=1, the same build without the request journal (JOURNAL_MAX_PER_APP=0): what
//   the journal costs, same build, same run (docs/performance.md, "The request journal").
// SCENARIO=messages (default) | account | push | batch (1000 recipients, one connection), or several
// comma-separated (SCENARIO=messages,push): each build then takes every scenario in turn on the same
// server, and the per-round ratio of each scenario to the first is printed (issue 32 point 3, a
// one-device push against a send: the median of per-round ratios moves far less with the machine
// than two separate runs do). ROUNDS (5), SECS (3). With
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" the products write a V8 CPU profile on exit.
import { rmSync } from 'node:fs'
import { callJson } from './http.js'
import { type Figures, type LoadOptions, loadRound, median } from './load.js'
import { type Server, sampleRss, waitIdle } from './processes.js'
import {
  APPS,
  basic,
  createWorkspace,
  messageTemplate,
  mobileBlock,
  postBody,
  startCeiling,
  startProduct,
} from './product.js'
import { batchTemplate } from './sms-scenarios.js'

const ROUNDS = Number(process.env.ROUNDS ?? 5)
const SECS = Number(process.env.SECS ?? 3)
const SCENARIOS = (process.env.SCENARIO ?? 'messages').split(',').map(s => s.trim())
const auth = basic(APPS.main.key, APPS.main.secret)

interface Contender {
  name: string
  scenario: string
  server: Server
  options: () => LoadOptions
  rounds: Figures[]
}

// Removed at the end (BENCH_KEEP=1 keeps them: logs, databases).
const workspaces: string[] = []
const workspace = () => {
  const ws = createWorkspace()
  workspaces.push(ws.dir)
  return ws
}

async function product(name: string, script?: string, env?: Record<string, string>): Promise<Contender[]> {
  const ws = workspace()
  const server = await startProduct(ws, { ...(script ? { script } : {}), ...(env ? { env } : {}) })
  const several = SCENARIOS.length > 1
  const all: Contender[] = []
  for (const scenario of SCENARIOS)
    all.push({
      name: several ? `${name} ${scenario}` : name,
      scenario,
      server,
      options: await scenarioOn(server, scenario),
      rounds: [],
    })
  return all
}

async function scenarioOn(server: Server, scenario: string): Promise<() => LoadOptions> {
  const base = {
    url: server.url,
    pid: server.child.pid,
    headers: { authorization: auth },
    settle: true,
    durationSeconds: SECS,
  }
  let options: () => LoadOptions
  if (scenario === 'account') options = () => ({ ...base, path: '/v1/accounts/app' })
  else if (scenario === 'push') {
    const device = await callJson(`${server.url}/_sandbox/push/devices`, 'POST', auth, {
      platform: 'android',
    })
    const id = (device.body as { registration_id: string }).registration_id
    const body = { platform: 'all', audience: { registration_id: [id] }, notification: { alert: 'bench' } }
    options = () => ({ ...base, method: 'POST', path: '/v3/push', body: JSON.stringify(body) })
  } else if (scenario === 'batch')
    options = () => ({
      ...base,
      method: 'POST',
      path: '/v1/messages/batch',
      body: { template: batchTemplate, start: mobileBlock() },
      connections: 1,
    })
  else
    options = () => ({
      ...base,
      method: 'POST',
      path: '/v1/messages',
      body: { template: messageTemplate, start: mobileBlock() },
    })
  return options
}

const contenders: Contender[] = []
async function startAll(): Promise<void> {
  contenders.push(...(await product('product')))
  if (process.env.JOURNAL_AB)
    contenders.push(...(await product('journal off', undefined, { JOURNAL_MAX_PER_APP: '0' })))
  if (process.env.BASE) contenders.push(...(await product('base', process.env.BASE)))
  if (!process.env.CEILING) return
  const server = await startCeiling(workspace())
  contenders.push({
    name: 'ceiling (b)',
    scenario: 'ceiling',
    server,
    options: () => ({
      url: server.url,
      pid: server.child.pid,
      method: 'POST',
      path: '/post',
      headers: { authorization: auth },
      body: postBody,
      durationSeconds: SECS,
    }),
    rounds: [],
  })
}

const show = (f: Figures) =>
  `${f.rps.toFixed(0)} req/s, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, ${f.cpuUs.toFixed(1)} µs CPU/req` +
  (f.non2xx + f.errors > 0 ? ` (${f.non2xx} ≥ 400, ${f.errors} errors)` : '')
try {
  await startAll()
  for (const c of contenders) await loadRound({ ...c.options(), durationSeconds: 1 }) // warm-up
  // Odd rounds take the contenders in reverse: on this 2-core machine the one that goes first in a
  // round read several per cent cheaper, whichever build it was (docs/performance.md, "The push
  // path after issues 29 and 30"), so a fixed order leaned every A/B one way.
  for (let r = 0; r < ROUNDS; r++)
    for (const c of r % 2 === 0 ? contenders : [...contenders].reverse()) {
      await waitIdle(c.server.child.pid!)
      const rss = sampleRss(c.server.child.pid!)
      const f = await loadRound(c.options())
      c.rounds.push(f)
      console.log(`round ${r + 1} ${c.name}: ${show(f)}, RSS ≤ ${rss.stop().toFixed(0)} MiB`)
    }
  const ceiling = contenders.find(c => c.name === 'ceiling (b)')
  const med = (c: Contender, pick: (f: Figures) => number) => median(c.rounds.map(pick))
  for (const c of contenders) {
    const versus =
      ceiling && c !== ceiling ? ` = ${(med(c, f => f.rps) / med(ceiling, f => f.rps)).toFixed(2)} × (b)` : ''
    console.log(
      `median ${c.name} (${c.scenario}): ${med(c, f => f.rps).toFixed(0)} req/s${versus}, ${med(c, f => f.cpuUs).toFixed(1)} µs CPU/req, p99 ${med(c, f => f.p99).toFixed(2)} ms`,
    )
  }
  const [on, off] = ['product', 'journal off'].map(n => contenders.find(c => c.name === n))
  if (on && off) {
    // Each round's pair ran back to back, under the same load: the median of their ratios moves
    // less with the machine's load than the ratio of the medians.
    const ratios = on.rounds.map((f, i) => f.cpuUs / off.rounds[i]!.cpuUs)
    const [a, b] = [med(on, f => f.cpuUs), med(off, f => f.cpuUs)]
    console.log(
      `the request journal (${on.scenario}): ${(a - b).toFixed(1)} µs CPU/req (${(((a - b) / b) * 100).toFixed(1)} % of the medians); ` +
        `per round ${((median(ratios) - 1) * 100).toFixed(1)} % (median of ${ratios.length})`,
    )
  }
  // Several scenarios on one server: each one's CPU/req over the first's, round by round.
  if (SCENARIOS.length > 1)
    for (const build of new Set(contenders.map(c => c.server)))
      if (build !== ceiling?.server) {
        const [first, ...others] = contenders.filter(c => c.server === build)
        for (const other of others) {
          const ratios = other.rounds.map((f, i) => f.cpuUs / first!.rounds[i]!.cpuUs)
          console.log(
            `${other.name} ÷ ${first!.name}: CPU/req ${median(ratios).toFixed(2)} (median of per-round ${ratios.map(x => x.toFixed(2)).join(', ')})`,
          )
        }
      }
} finally {
  await Promise.all([...new Set(contenders.map(c => c.server))].map(s => s.stop()))
  if (!process.env.BENCH_KEEP) for (const dir of workspaces) rmSync(dir, { recursive: true, force: true })
}
