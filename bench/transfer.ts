import { execFile } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { request } from 'undici'
import { openDatabase } from '../src/store/engine/db.js'
import { median } from './load.js'
import { sampleRss } from './processes.js'
import { APPS, basic, createWorkspace, startProduct } from './product.js'
import { log } from './throughput.js'

// `npx tsx bench/transfer.ts` (after `npm run build`): an app's document at the caps (issue 33,
// point 3), exported and imported by the built product (dist/server.js) on a database file, while
// another tenant calls `GET /v1/accounts/app` one request after another. Prints, for each: the
// wall time, the document's size, the product's highest RSS, and the other tenant's requests
// (count, p50, p99, max) meanwhile. Knobs: DEVICES (100000), DELIVERIES (400000).
const DEVICES = Number(process.env.DEVICES ?? 100_000)
const DELIVERIES = Number(process.env.DELIVERIES ?? 400_000)

/** The app at the caps: devices, and pushes each delivered to every device, written straight in. */
function fill(database: string): void {
  const db = openDatabase(database)
  try {
    const app = APPS.devices.key
    const device = db.prepare(
      `INSERT INTO push_devices (app_key, registration_id, platform, alias, online, last_online_at, created_at)
       VALUES (?, ?, 'android', ?, 1, 0, ?)`,
    )
    const tag = db.prepare('INSERT INTO push_device_tags (app_key, registration_id, tag) VALUES (?, ?, ?)')
    const push = db.prepare(
      `INSERT INTO pushes (msg_id, app_key, sendno, payload, broadcast, day_key, time_to_live, created_at, seq)
       VALUES (?, ?, '0', '{"platform":"all","audience":"all","notification":{"alert":"x"}}', 1, '2026-01-01', 86400, ?, ?)`,
    )
    const delivery = db.prepare(
      `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at, seq)
       VALUES (?, ?, ?, 'android', 'delivered', ?, ?, ?)`,
    )
    const rid = (i: number) => `1a${i.toString(16).padStart(17, '0')}`
    // The seed's app has devices of its own: the app ends at DEVICES, the cap.
    const have = db.prepare<[string], number>('SELECT count(*) FROM push_devices WHERE app_key = ?').pluck().get(app)!
    db.transaction(() => {
      for (let i = 0; i < DEVICES - have; i++) {
        device.run(app, rid(i), `u${i}`, i)
        tag.run(app, rid(i), 'bench')
      }
      let seq = 1
      for (let p = 0; p * DEVICES < DELIVERIES; p++) {
        const msgId = `181${String(p + 1).padStart(14, '0')}`
        push.run(msgId, app, p, seq++)
        for (let i = 0; i < DEVICES - have && p * DEVICES + i < DELIVERIES; i++)
          delivery.run(msgId, app, rid(i), 86_400_000, 1, seq++)
      }
      db.prepare("UPDATE sequences SET value = max(value, 1000) WHERE name = 'push_msg_id'").run()
    })()
  } finally {
    db.close()
  }
}

/** Another tenant's requests, one after another, until stopped: their latencies in ms. */
function victim(url: string) {
  const auth = basic(APPS.main.key, APPS.main.secret)
  const ms: number[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const t0 = performance.now()
      const res = await request(`${url}/v1/accounts/app`, { headers: { authorization: auth } })
      await res.body.dump()
      if (res.statusCode !== 200) throw new Error(`victim: ${res.statusCode}`)
      ms.push(performance.now() - t0)
    }
  })()
  return {
    async stop() {
      running = false
      await done
      const sorted = [...ms].sort((a, b) => a - b)
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
      return { n: ms.length, p50: median(ms), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN }
    },
  }
}

/** curl in a process of its own, failing on an HTTP error; its output. */
async function curl(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('curl', ['-sS', '--fail-with-body', ...args], {
    maxBuffer: 1024 * 1024,
  })
  return stdout
}

async function measured<T>(url: string, pid: number, what: () => Promise<T>) {
  const before = victim(url)
  await new Promise(resolve => setTimeout(resolve, 2000))
  const baseline = await before.stop()
  const rss = sampleRss(pid, 50)
  const during = victim(url)
  const t0 = performance.now()
  const result = await what()
  const wallMs = performance.now() - t0
  return { result, wallMs, rssMiB: rss.stop(), baseline, during: await during.stop() }
}

const f = (n: number) => n.toFixed(1)
const report = (name: string, m: Awaited<ReturnType<typeof measured>>, extra: string) =>
  log(
    `${name}: ${(m.wallMs / 1000).toFixed(1)} s, ${extra}, RSS max ${f(m.rssMiB)} MiB; other tenant ` +
      `before ${m.baseline.n} requests p50/p99 ${f(m.baseline.p50)}/${f(m.baseline.p99)} ms, ` +
      `during ${m.during.n} requests p50/p99/max ${f(m.during.p50)}/${f(m.during.p99)}/${f(m.during.max)} ms`,
  )

async function main(): Promise<void> {
  const ws = createWorkspace()
  const file = join(ws.dir, 'document.json')
  try {
    // The seed makes the apps at the first start; the rows go in after.
    await (await startProduct(ws, { logName: 'seed.log' })).stop()
    const t0 = performance.now()
    fill(ws.database)
    log(`filled: ${DEVICES} devices, ${DELIVERIES} deliveries in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const source = await startProduct(ws, { logName: 'export.log' })
    try {
      // curl reads the document in a process of its own: this one only times the other tenant.
      const exported = await measured(source.url, source.child.pid!, () =>
        curl(['-o', file, '-u', `${APPS.devices.key}:${APPS.devices.secret}`, `${source.url}/_sandbox/app/export`]),
      )
      report('export', exported, `${(statSync(file).size / 2 ** 20).toFixed(0)} MiB`)
    } finally {
      await source.stop()
    }
    // Into a fresh sandbox: the document's ids are the source's.
    const target = await startProduct(ws, { database: join(ws.dir, 'target.db'), logName: 'import.log' })
    try {
      const imported = await measured(target.url, target.child.pid!, async () => {
        const text = await curl([
          '-u',
          `${APPS.schedules.key}:${APPS.schedules.secret}`,
          '-H',
          'Content-Type: application/json',
          '--data-binary',
          `@${file}`,
          `${target.url}/_sandbox/app/import`,
        ])
        if (!text.includes('"imported":true')) throw new Error(`import: ${text}`)
        return JSON.parse(text) as { rows: number }
      })
      report('import', imported, `${imported.result.rows} rows`)
    } finally {
      await target.stop()
    }
  } finally {
    rmSync(ws.dir, { recursive: true, force: true })
  }
}

await main()
