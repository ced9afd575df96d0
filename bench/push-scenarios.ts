import { features } from '../src/app.js'
import { tablesOf } from '../src/http/feature.js'
import { openDatabase } from '../src/store/engine/db.js'
import { createStore } from '../src/store/index.js'
import { callJson } from './http.js'
import { type Figures, loadRounds } from './load.js'
import { cpuSeconds } from './processes.js'
import { APPS, basic } from './product.js'

const devicesAuth = basic(APPS.devices.key, APPS.devices.secret)
const push = (audience: unknown) => ({ platform: 'all', audience, notification: { alert: 'bench' } })

/** The devices app's device number `i`: online, android, alias u<i> (tagged "bench" where it is registered). */
export const bigAppDevice = (i: number) => ({
  appKey: APPS.devices.key,
  registrationId: `1a${i.toString(16).padStart(17, '0')}`,
  platform: 'android' as const,
  alias: `u${i}`,
  mobile: null,
  online: true,
  lastOnlineAt: 0,
  createdAt: i,
})

/**
 * An app with `count` devices, each with its own alias (u0…) and the tag "bench", written through
 * the store into the database file before the server starts (100 000 HTTP registrations would
 * take minutes and measure nothing this bench is about). The app must exist: the seed file made it.
 */
export function fillRegistry(database: string, count: number): number {
  const started = performance.now()
  const db = openDatabase(database)
  // With the features' tables: the devices are push/device's, as the server makes its store (app.ts).
  const store = createStore(db, { tables: tablesOf(features) })
  try {
    if (!store.apps.get(APPS.devices.key)) throw new Error(`app ${APPS.devices.key} is not in ${database}`)
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const device = bigAppDevice(i)
        if (store.pushDevices.get(device.appKey, device.registrationId)) continue
        store.pushDevices.insert(device, ['bench'])
      }
    })
  } finally {
    store.close()
    db.close()
  }
  return performance.now() - started
}

/** Alias audience in the big app: one caller, the latency of each push. */
export async function pushAlias(
  url: string,
  rounds: number,
  seconds: number,
  devices: number,
  pid?: number,
): Promise<Figures & { rounds: Figures[] }> {
  return loadRounds(
    {
      url,
      pid,
      method: 'POST',
      path: '/v3/push',
      headers: { authorization: devicesAuth },
      body: {
        template: JSON.stringify(push({ alias: ['{{alias}}'] })),
        aliases: devices,
        start: Math.floor(Math.random() * devices),
      },
      connections: 1,
      durationSeconds: seconds,
      settle: true,
    },
    rounds,
  )
}

/** Broadcasts over the big app: wall time and server CPU of each call (at most 10 a day per app). */
export async function pushBroadcast(url: string, times: number, pid: number): Promise<Broadcasts> {
  const f: Broadcasts = { ms: [], cpuMs: [] }
  for (let i = 0; i < times; i++) {
    const cpu = cpuSeconds(pid)
    const started = performance.now()
    const a = await callJson(`${url}/v3/push`, 'POST', devicesAuth, push('all'))
    if (a.status !== 200) throw new Error(`broadcast answered ${a.status} ${JSON.stringify(a.body)}`)
    f.ms.push(performance.now() - started)
    f.cpuMs.push((cpuSeconds(pid) - cpu) * 1000)
  }
  return f
}

export interface Broadcasts {
  ms: number[]
  cpuMs: number[]
}
