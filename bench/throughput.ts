import { setTimeout as sleep } from 'node:timers/promises'
import { callJson } from './http.js'
import { type Figures, type LoadOptions, loadRound, summarize } from './load.js'
import { sampleRss } from './processes.js'
import {
  APPS,
  basic,
  messageTemplate,
  mobileBlock,
  postBody,
  startCeiling,
  startProduct,
  type Workspace,
} from './product.js'

const auth = basic(APPS.main.key, APPS.main.secret)

export type Scenario = 'ceilingGet' | 'ceilingPost' | 'account' | 'messages' | 'push'

export interface Throughput {
  figures: Record<Scenario, Figures & { rounds: Figures[] }>
  /** Highest RSS of the product during the POST /v1/messages rounds, MiB. */
  sendRss: number
  /** Highest RSS of bare Fastify during the ceiling (b) rounds, MiB. */
  ceilingRss: number
}

/**
 * The 50-connection scenarios, bare Fastify and the product running side by side, their rounds
 * taking turns (ceiling a, ceiling b, then each product scenario; `rounds` times): every ratio
 * compares figures taken a few seconds apart, under the same load from the machine's other work.
 */
export async function throughput(ws: Workspace, rounds: number, seconds: number): Promise<Throughput> {
  const ceiling = await startCeiling(ws)
  const product = await startProduct(ws)
  try {
    const device = await callJson(`${product.url}/_sandbox/push/devices`, 'POST', auth, {
      platform: 'android',
      online: true,
    })
    const id = (device.body as { registration_id?: string }).registration_id
    if (!id)
      throw new Error(`POST /_sandbox/push/devices answered ${device.status} ${JSON.stringify(device.body)}`)
    const on = (server: typeof ceiling, o: Omit<LoadOptions, 'url' | 'pid' | 'durationSeconds'>) => () =>
      ({ ...o, url: server.url, pid: server.child.pid, durationSeconds: seconds }) as LoadOptions
    const post = { method: 'POST' as const, headers: { authorization: auth } }
    const plan: Record<Scenario, () => LoadOptions> = {
      ceilingGet: on(ceiling, { path: '/ping' }),
      ceilingPost: on(ceiling, { ...post, path: '/post', body: postBody }),
      account: on(product, { path: '/v1/accounts/app', headers: { authorization: auth } }),
      messages: () => ({
        ...on(product, { ...post, path: '/v1/messages' })(),
        body: { template: messageTemplate, start: mobileBlock() },
      }),
      push: on(product, {
        ...post,
        path: '/v3/push',
        body: JSON.stringify({
          platform: 'all',
          audience: { registration_id: [id] },
          notification: { alert: 'bench' },
        }),
      }),
    }
    // A short first pass warms both processes (JIT, caches, the database's first pages).
    for (const scenario of Object.keys(plan) as Scenario[])
      await loadRound({ ...plan[scenario](), durationSeconds: 1 })
    await sleep(500)
    const all = Object.fromEntries(Object.keys(plan).map(k => [k, [] as Figures[]])) as Record<
      Scenario,
      Figures[]
    >
    let sendRss = 0
    let ceilingRss = 0
    for (let r = 0; r < rounds; r++) {
      for (const scenario of Object.keys(plan) as Scenario[]) {
        const watched = scenario === 'messages' ? product : scenario === 'ceilingPost' ? ceiling : undefined
        const rss = watched && sampleRss(watched.child.pid!)
        all[scenario].push(await loadRound(plan[scenario]()))
        if (scenario === 'messages') sendRss = Math.max(sendRss, rss!.stop())
        if (scenario === 'ceilingPost') ceilingRss = Math.max(ceilingRss, rss!.stop())
        log(`${scenario} round ${r + 1}: ${brief(all[scenario].at(-1)!)}`)
      }
    }
    const figures = Object.fromEntries(
      Object.entries(all).map(([k, v]) => [k, summarize(v)]),
    ) as Throughput['figures']
    return { figures, sendRss, ceilingRss }
  } finally {
    await Promise.all([ceiling.stop(), product.stop()])
  }
}

export function brief(f: Figures): string {
  const bad = f.non2xx + f.errors > 0 ? ` (${f.non2xx} ≥400, ${f.errors} errors)` : ''
  return `${f.rps.toFixed(0)} req/s${bad}, p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms, ${f.cpuUs.toFixed(0)} µs CPU/req`
}

export function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`)
}
