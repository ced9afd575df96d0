import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { type Figures, loadRounds, median } from './load.js'
import { rssMiB, sampleRss } from './processes.js'
import { APPS, basic, freePort, mobiles, startProduct, type Workspace } from './product.js'

const mainAuth = basic(APPS.main.key, APPS.main.secret)

export interface SmsFigures {
  messages: Figures
  rssUnderLoad: number
  batch: Figures
  idleRss: number
  coldStart: number[]
}

/** POST /v1/messages at 50 connections, then a 1000-recipient batch, on a running product. */
export async function smsLoad(ws: Workspace, rounds: number, seconds: number) {
  const server = await startProduct(ws)
  try {
    const next = mobiles()
    const para = { order: 'SO20260101000042', days: '3' }
    await sleep(500)
    const rss = sampleRss(server.child.pid!)
    const messages = await loadRounds(
      {
        url: server.url,
        pid: server.child.pid,
        method: 'POST',
        path: '/v1/messages',
        headers: { authorization: mainAuth },
        body: () => JSON.stringify({ mobile: next(), temp_id: 2, temp_para: para }),
        durationSeconds: seconds,
      },
      rounds,
    )
    const rssUnderLoad = rss.stop()
    // One caller sending batches back to back: the latency of one batch, not of a queue.
    const batch = await loadRounds(
      {
        url: server.url,
        pid: server.child.pid,
        method: 'POST',
        path: '/v1/messages/batch',
        headers: { authorization: mainAuth },
        body: () =>
          JSON.stringify({
            temp_id: 2,
            recipients: Array.from({ length: 1000 }, () => ({ mobile: next(), temp_para: para })),
          }),
        connections: 1,
        amount: 20,
      },
      rounds,
    )
    return { messages, rssUnderLoad, batch }
  } finally {
    await server.stop()
  }
}

/** Start to the first 200 on an existing database, then the RSS of the idle process. */
export async function coldStart(
  ws: Workspace,
  times: number,
): Promise<{ coldStart: number[]; idleRss: number }> {
  const samples: number[] = []
  let idleRss = Number.NaN
  for (let i = 0; i < times; i++) {
    const port = await freePort()
    const started = performance.now()
    const serverPromise = startProduct(ws, port, `cold-${i}.log`)
    await firstOk(`http://127.0.0.1:${port}/v1/accounts/app`)
    samples.push(performance.now() - started)
    const server = await serverPromise
    if (i === times - 1) {
      await sleep(2000)
      idleRss = rssMiB(server.child.pid!)
    }
    await server.stop()
  }
  return { coldStart: samples, idleRss }
}

async function firstOk(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    try {
      const res = await request(url, { headers: { authorization: mainAuth } })
      await res.body.dump()
      if (res.statusCode === 200) return
    } catch {}
    await sleep(2)
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}

export { median }
