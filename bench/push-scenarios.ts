import { type Answer, callJson, isMissingRoute, pool } from './http.js'
import { type Figures, loadRounds } from './load.js'
import { APPS, basic } from './product.js'

// Guarded: the push API (/v3) and the device registry of the sandbox may not be merged yet. Every
// scenario probes its routes first and is skipped, with the reason, when they answer 404.

const mainAuth = basic(APPS.main.key, APPS.main.secret)
const devicesAuth = basic(APPS.devices.key, APPS.devices.secret)
const push = (audience: unknown) => ({ platform: 'all', audience, notification: { alert: 'bench' } })

export type Outcome<T> = { ok: T } | { skipped: string }

async function newDevice(url: string, auth: string, body: Record<string, unknown>): Promise<Answer> {
  return callJson(`${url}/_sandbox/push/devices`, 'POST', auth, {
    platform: 'android',
    online: true,
    ...body,
  })
}

/** POST /v3/push to one registration_id, 50 connections. */
export async function pushSingle(
  url: string,
  rounds: number,
  seconds: number,
  pid?: number,
): Promise<Outcome<Figures>> {
  const device = await newDevice(url, mainAuth, {})
  if (isMissingRoute(device))
    return { skipped: 'POST /_sandbox/push/devices answers 404 (push API not merged)' }
  const id = (device.body as { registration_id?: string }).registration_id
  if (!id)
    return { skipped: `POST /_sandbox/push/devices answered ${device.status} ${JSON.stringify(device.body)}` }
  const probe = await callJson(`${url}/v3/push`, 'POST', mainAuth, push({ registration_id: [id] }))
  if (isMissingRoute(probe)) return { skipped: 'POST /v3/push answers 404 (push API not merged)' }
  const body = JSON.stringify(push({ registration_id: [id] }))
  const figures = await loadRounds(
    {
      url,
      pid,
      method: 'POST',
      path: '/v3/push',
      headers: { authorization: mainAuth },
      body,
      durationSeconds: seconds,
    },
    rounds,
  )
  return { ok: figures }
}

/** An app with `count` devices, each with its own alias (u0…) and a tag. */
export async function fillRegistry(url: string, count: number): Promise<Outcome<number>> {
  const probe = await newDevice(url, devicesAuth, { alias: 'u0', tags: ['bench'] })
  if (isMissingRoute(probe))
    return { skipped: 'POST /_sandbox/push/devices answers 404 (push API not merged)' }
  if (probe.status !== 200)
    return { skipped: `device registration answered ${probe.status} ${JSON.stringify(probe.body)}` }
  const started = performance.now()
  let failed = 0
  const ids = Array.from({ length: count - 1 }, (_, i) => i + 1)
  await pool(ids, 32, async i => {
    const a = await newDevice(url, devicesAuth, { alias: `u${i}`, tags: ['bench'] })
    if (a.status !== 200) failed++
  })
  if (failed > 0) return { skipped: `${failed} of ${count} device registrations failed` }
  return { ok: performance.now() - started }
}

/** Alias audience in the big app: one caller, latency of each push. */
export async function pushAlias(url: string, rounds: number, pid?: number): Promise<Outcome<Figures>> {
  let n = 0
  const figures = await loadRounds(
    {
      url,
      pid,
      method: 'POST',
      path: '/v3/push',
      headers: { authorization: devicesAuth },
      body: () => JSON.stringify(push({ alias: [`u${(n++ * 7919) % 100_000}`] })),
      connections: 1,
      amount: 200,
    },
    rounds,
  )
  return { ok: figures }
}

/** Broadcasts over the big app: wall time of each call (at most 10 a day are allowed per app). */
export async function pushBroadcast(url: string, times: number): Promise<Outcome<number[]>> {
  const samples: number[] = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    const a = await callJson(`${url}/v3/push`, 'POST', devicesAuth, push('all'))
    if (a.status !== 200) return { skipped: `broadcast answered ${a.status} ${JSON.stringify(a.body)}` }
    samples.push(performance.now() - started)
  }
  return { ok: samples }
}
