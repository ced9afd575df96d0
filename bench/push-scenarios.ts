import { openDatabase } from '../src/store/db.js'
import { createStore } from '../src/store/index.js'
import { type Answer, callJson, isMissingRoute } from './http.js'
import { type Figures, loadRounds } from './load.js'
import { APPS, basic } from './product.js'

// Every scenario probes its routes first and is skipped, with the reason, when they answer 404.

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

/**
 * An app with `count` devices, each with its own alias (u0…) and the tag "bench", written through
 * the store into the database file before the server starts (100 000 HTTP registrations would
 * take minutes and measure nothing this bench is about). The app must exist: the seed file made it.
 */
export function fillRegistry(database: string, count: number): Outcome<number> {
  const started = performance.now()
  const db = openDatabase(database)
  const store = createStore(db)
  try {
    if (!store.apps.get(APPS.devices.key)) return { skipped: `app ${APPS.devices.key} is not in ${database}` }
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const registrationId = `1a${i.toString(16).padStart(17, '0')}`
        if (store.pushDevices.get(APPS.devices.key, registrationId)) continue
        store.pushDevices.insert(
          {
            appKey: APPS.devices.key,
            registrationId,
            platform: 'android',
            alias: `u${i}`,
            mobile: null,
            online: true,
            lastOnlineAt: 0,
            createdAt: i,
          },
          ['bench'],
        )
      }
    })
  } finally {
    store.close()
    db.close()
  }
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
