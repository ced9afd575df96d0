// `npx tsx bench/app-storage.ts`: what GET /_sandbox/app/storage costs the other tenants on an app
// of 200 000 devices (two tags and a session each) and 200 000 deliveries, times SCALE. The rows
// are written through the store (devices, tags) and as rows (sessions, pushes, deliveries) into a
// database file, in one transaction each; then the route is called RUNS times, one at a time,
// while a ticker measures the longest the event loop was held (the gap between two turns of
// setImmediate) and another app asks GET /_sandbox/app once a turn: how many of its requests, asked
// after the count began, were answered before it ended. The app's rows are also counted the way the route did before
// (one `SELECT count(*)` per table, one synchronous block), in the same process, for the ratio,
// and the count's steps are timed one by one (what one step holds the loop, nothing between them).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { buildApp } from '../src/app.js'
import { testConfig } from '../src/config.js'
import { DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET } from '../src/seed/fixtures.js'
import { provisionApp } from '../src/seed/provision.js'
import { appTables } from '../src/store/apps/app-rows.js'
import { median } from './load.js'

const SCALE = Number(process.env.SCALE ?? 1)
const RUNS = Number(process.env.RUNS ?? 5)
const DEVICES = Math.round(200_000 * SCALE)
const DELIVERIES = Math.round(200_000 * SCALE)
const BIG = { key: 'storagebench000000000001', secret: 'storagebenchsecret000001' }
const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`

const dir = mkdtempSync(join(tmpdir(), 'app-storage-'))
const app = await buildApp(testConfig({ database: join(dir, 'sandbox.db') }))
await app.ready()
try {
  const { store } = app
  const db = store.db
  const now = Date.now()
  let t = performance.now()
  store.transaction(() => {
    provisionApp(store, { appKey: BIG.key, masterSecret: BIG.secret }, now)
    const session = db.prepare(
      `INSERT INTO push_device_sessions (app_key, registration_id, platform, online_at, offline_at)
       VALUES (?, ?, 'android', ?, ?)`,
    )
    for (let i = 0; i < DEVICES; i++) {
      const rid = `1a${i.toString(16).padStart(17, '0')}`
      store.pushDevices.insert(
        {
          appKey: BIG.key,
          registrationId: rid,
          platform: 'android',
          alias: `u${i}`,
          mobile: null,
          online: true,
          lastOnlineAt: 0,
          createdAt: i,
        },
        ['bench', `t${i % 10}`],
      )
      session.run(BIG.key, rid, i, i + 1)
    }
    const push = db.prepare(
      `INSERT INTO pushes (msg_id, app_key, sendno, payload, broadcast, day_key, time_to_live, created_at)
       VALUES (?, ?, 0, '{}', 0, '20260101', 86400, ?)`,
    )
    const delivery = db.prepare(
      `INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at)
       VALUES (?, ?, ?, 'android', 'delivered', ?, ?)`,
    )
    for (let i = 0; i < DELIVERIES; i++) {
      const msgId = String(800_000_000_000 + Math.floor(i / 1000))
      if (i % 1000 === 0) push.run(msgId, BIG.key, now)
      delivery.run(msgId, BIG.key, `1a${(i % DEVICES).toString(16).padStart(17, '0')}`, now + 86_400_000, now)
    }
  })
  const fillMs = performance.now() - t

  // Before: the count as one synchronous block, one statement per table.
  const counts = appTables(db).map(table =>
    db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM "${table}" WHERE app_key = ?`),
  )
  const oneBlock: number[] = []
  let rows = 0
  for (let r = 0; r < RUNS; r++) {
    t = performance.now()
    rows = 0
    for (const c of counts) rows += c.get(BIG.key)?.n ?? 0
    oneBlock.push(performance.now() - t)
  }

  const other = { authorization: basic(DEFAULT_APP_KEY, DEFAULT_MASTER_SECRET) }
  const big = { authorization: basic(BIG.key, BIG.secret) }
  // Both routes once, so what is measured is not their first call (compiling, first reads).
  await app.inject({ method: 'GET', url: '/_sandbox/app', headers: other })
  await app.inject({ method: 'GET', url: '/_sandbox/app/storage', headers: other })
  const route: number[] = []
  const held: number[] = []
  const answered: number[] = []
  let routeRows = 0
  for (let r = 0; r < RUNS; r++) {
    let longest = 0
    let last = performance.now()
    let running = true
    const ticker = (async () => {
      while (running) {
        await turn()
        const at = performance.now()
        longest = Math.max(longest, at - last)
        last = at
      }
    })()
    let others = 0
    let counting = false
    const asking = (async () => {
      while (running) {
        await turn()
        const asked = counting
        const res = await app.inject({ method: 'GET', url: '/_sandbox/app', headers: other })
        if (res.statusCode === 200 && asked && counting) others++
      }
    })()
    await turn()
    counting = true
    longest = 0
    last = performance.now()
    t = performance.now()
    const res = await app.inject({ method: 'GET', url: '/_sandbox/app/storage', headers: big })
    route.push(performance.now() - t)
    counting = false
    running = false
    await Promise.all([ticker, asking])
    if (res.statusCode !== 200) throw new Error(`storage: ${res.statusCode} ${res.body}`)
    routeRows = Object.values(res.json<{ rows: Record<string, number> }>().rows).reduce((a, b) => a + b, 0)
    held.push(longest)
    answered.push(others)
  }

  // The route's steps one by one, nothing between them: what one step holds the event loop.
  const stepMs: number[] = []
  for (let r = 0; r < RUNS; r++) {
    const steps = store.appRows.counting(BIG.key)
    for (;;) {
      t = performance.now()
      const step = steps.next()
      stepMs.push(performance.now() - t)
      if (step.done) break
    }
  }
  const slowest = stepMs
    .map((ms, i) => ({ ms, i: i % (stepMs.length / RUNS) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
  stepMs.sort((a, b) => a - b)
  const at = (q: number) => stepMs[Math.min(stepMs.length - 1, Math.floor(stepMs.length * q))]!.toFixed(2)
  const f = (ms: number[]) => `${median(ms).toFixed(1)} ms (${ms.map(v => v.toFixed(1)).join(', ')})`
  console.log(
    `app: ${DEVICES} devices (2 tags, 1 session each), ${DELIVERIES} deliveries; filled in ${(fillMs / 1000).toFixed(1)} s`,
  )
  console.log(`rows of the app: ${rows} by SELECT count(*); ${routeRows} in the route's answer`)
  console.log(`one SELECT count(*) per table, one block: ${f(oneBlock)}`)
  console.log(`GET /_sandbox/app/storage, whole call:      ${f(route)}`)
  console.log(`  longest gap between two turns:           ${f(held)}`)
  console.log(
    `  one step of the count (store.appRows.counting): ${stepMs.length / RUNS} steps, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms (slowest: ${slowest.map(s => `${s.ms.toFixed(1)} ms at step ${s.i}`).join(', ')})`,
  )
  console.log(`  another app's GET /_sandbox/app answered meanwhile: ${answered.join(', ')}`)
} finally {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
}
