// `npx tsx bench/scale.ts` (issue 32, point 4): a shared sandbox as it fills. It builds the state
// of a busy shared instance — 10 000 apps, 1 000 000 devices across them (one app with 200 000
// under one tag), 1 000 000 journal entries, 1 000 000 messages — times SCALE (1 by default; 0.01
// and 0.1 give the ×10 and ×100 steps of docs/performance.md's table), then measures the same
// build on that database and on an empty one, side by side in the same run:
// - the start: spawn to the first 200 of GET /v1/accounts/app (STARTS times each, median), and the
//   idle RSS 2 s later;
// - CPU per request of a send (POST /v1/messages) and of a one-device push, full and empty taking
//   turns round after round (ROUNDS, SECS), and the median of the per-round ratios;
// - a push to the 200 000-device tag: its answer, the fan-out until the last delivery is stored,
//   and meanwhile the p99 of another app's sends (wrk, 10 connections);
// - GET /_sandbox/apps (the operator's first page) and a filtered page of one app's journal:
//   median and p99 of LATENCY_CALLS sequential calls.
// The state is written into the database file before the server starts, through the store for
// apps and devices (their caches, tags and counters as the product keeps them) and as rows for
// messages and journal entries (a million sends through HTTP would take an hour and measure
// nothing this bench is about). BENCH_KEEP=1 keeps the workspace.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { request } from 'undici'
import { provisionApp } from '../src/seed/provision.js'
import { openDatabase } from '../src/store/engine/db.js'
import { createStore } from '../src/store/index.js'
import { callJson } from './http.js'
import { type Figures, loadRound, median } from './load.js'
import { cpuSeconds, rssMiB, type Server, waitIdle } from './processes.js'
import {
  APPS,
  basic,
  createWorkspace,
  messageTemplate,
  mobileBlock,
  startProduct,
  type Workspace,
} from './product.js'
import { timeToFirstOk } from './start.js'

const SCALE = Number(process.env.SCALE ?? 1)
const ROUNDS = Number(process.env.ROUNDS ?? 3)
const SECS = Number(process.env.SECS ?? 3)
const STARTS = Number(process.env.STARTS ?? 3)
const LATENCY_CALLS = Number(process.env.LATENCY_CALLS ?? 50)

const SIZE = {
  apps: Math.max(10, Math.round(10_000 * SCALE)),
  devices: Math.round(1_000_000 * SCALE),
  bigApp: Math.round(200_000 * SCALE),
  journal: Math.round(1_000_000 * SCALE),
  messages: Math.round(1_000_000 * SCALE),
}
const OPERATOR = 'bench:benchoperatorsecret'
const operatorAuth = `Basic ${Buffer.from(OPERATOR).toString('base64')}`
const mainAuth = basic(APPS.main.key, APPS.main.secret)
const devicesAuth = basic(APPS.devices.key, APPS.devices.secret)
const env = { SANDBOX_OPERATOR: OPERATOR }

const tenantKey = (i: number) => `scale${i.toString().padStart(19, '0')}`
const tenantSecret = (i: number) => `scalesecret${i.toString().padStart(13, '0')}`

/** The first start makes the schema and the seed file's apps; then the shared state is written in. */
async function fill(ws: Workspace): Promise<Record<string, number>> {
  const first = await startProduct(ws, { env })
  await first.stop()
  const ms: Record<string, number> = {}
  const db = openDatabase(ws.database)
  const store = createStore(db)
  const now = Date.now()
  try {
    let t = performance.now()
    store.transaction(() => {
      for (let i = 0; i < SIZE.apps; i++)
        provisionApp(
          store,
          { appKey: tenantKey(i), masterSecret: tenantSecret(i) },
          now - (SIZE.apps - i) * 1000,
        )
    })
    ms.apps = performance.now() - t

    // The big app's devices under one tag, the rest spread over the tenants (each already has the
    // fixtures' four).
    t = performance.now()
    const fixtures = store.pushDevices.count(tenantKey(0)) * SIZE.apps
    const spread = Math.max(0, SIZE.devices - SIZE.bigApp - fixtures)
    store.transaction(() => {
      for (let i = 0; i < SIZE.bigApp; i++)
        store.pushDevices.insert(
          {
            appKey: APPS.devices.key,
            registrationId: `1a${i.toString(16).padStart(17, '0')}`,
            platform: 'android',
            alias: `u${i}`,
            mobile: null,
            online: true,
            lastOnlineAt: 0,
            createdAt: i,
          },
          ['bench'],
        )
      for (let i = 0; i < spread; i++)
        store.pushDevices.insert(
          {
            appKey: tenantKey(i % SIZE.apps),
            registrationId: `1b${i.toString(16).padStart(17, '0')}`,
            platform: i % 3 === 0 ? 'ios' : 'android',
            alias: `t${i}`,
            mobile: null,
            online: i % 2 === 0,
            lastOnlineAt: 0,
            createdAt: i,
          },
          [`t${i % 10}`],
        )
    })
    ms.devices = performance.now() - t

    // Messages, then journal entries, round-robin over the tenants: each app's seqs count up from
    // past what provisioning gave it (item-seqs.ts reads the largest at the app's first use).
    t = performance.now()
    const seqOf = new Map<string, number>()
    const nextSeq = (appKey: string) => {
      const n = (seqOf.get(appKey) ?? 1000) + 1
      seqOf.set(appKey, n)
      return n
    }
    const message = db.prepare(
      `INSERT INTO messages (msg_id, app_key, mobile, kind, temp_id, temp_type, sign_id, temp_para, content, units,
         tag, schedule_id, created_at, seq)
       VALUES (?, ?, ?, 'template', 1, 1, 1, '{"code":"123456"}', '【极光】您的验证码是123456', 1, NULL, NULL, ?, ?)`,
    )
    store.transaction(() => {
      for (let i = 0; i < SIZE.messages; i++) {
        const appKey = tenantKey(i % SIZE.apps)
        message.run(
          900_000_000_000_000 + i,
          appKey,
          `139${(i % 100_000_000).toString().padStart(8, '0')}`,
          now - i,
          nextSeq(appKey),
        )
      }
    })
    ms.messages = performance.now() - t

    t = performance.now()
    const entry = db.prepare(
      `INSERT INTO requests (seq, at, real_at, method, path, query, surface, status, code, message, reason, ids,
         duration_ms, client, user_agent, operator, request_body, answer_body, app_key, authenticated)
       VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, NULL, 0.4, '127.0.0.1', 'bench', 0, ?, ?, ?, 1)`,
    )
    store.transaction(() => {
      for (let i = 0; i < SIZE.journal; i++) {
        const appKey = tenantKey(i % SIZE.apps)
        const refused = i % 7 === 0
        entry.run(
          nextSeq(appKey),
          now - i,
          now - i,
          'POST',
          i % 2 === 0 ? '/v1/messages' : '/v3/push',
          i % 2 === 0 ? 'sms' : 'push',
          refused ? 403 : 200,
          refused ? 50013 : null,
          refused ? 'template not approved' : null,
          refused ? 'template 9 is under review' : null,
          '{"mobile":"13900000000","temp_id":1}',
          refused ? '{"error":{"code":50013}}' : '{"msg_id":"1"}',
          appKey,
        )
      }
    })
    ms.journal = performance.now() - t
  } finally {
    store.close()
    db.close()
  }
  return ms
}

/** Spawn to the first 200, STARTS times on each database, taking turns; RSS 2 s after the last. */
async function starts(empty: Workspace, full: Workspace) {
  const f = { empty: [] as number[], full: [] as number[], emptyRss: Number.NaN, fullRss: Number.NaN }
  for (let i = 0; i < STARTS; i++) {
    const last = i === STARTS - 1
    for (const [name, ws] of [
      ['empty', empty],
      ['full', full],
    ] as const) {
      const r = await timeToFirstOk(
        port => startProduct(ws, { port, logName: `start-${i}.log`, env }),
        '/v1/accounts/app',
        last,
      )
      f[name].push(r.ms)
      if (last) f[`${name}Rss`] = r.rss
    }
  }
  return f
}

/** CPU per request of one scenario, the two servers taking turns; the median of per-round ratios. */
async function perRequest(servers: { empty: Server; full: Server }, scenario: 'messages' | 'push') {
  const options = async (s: Server) => {
    const base = { url: s.url, pid: s.child.pid, settle: true, durationSeconds: SECS }
    if (scenario === 'messages')
      return () => ({
        ...base,
        method: 'POST' as const,
        path: '/v1/messages',
        headers: { authorization: mainAuth },
        body: { template: messageTemplate, start: mobileBlock() },
      })
    const device = await callJson(`${s.url}/_sandbox/push/devices`, 'POST', mainAuth, { platform: 'android' })
    const id = (device.body as { registration_id: string }).registration_id
    const body = JSON.stringify({
      platform: 'all',
      audience: { registration_id: [id] },
      notification: { alert: 'b' },
    })
    return () => ({
      ...base,
      method: 'POST' as const,
      path: '/v3/push',
      headers: { authorization: mainAuth },
      body,
    })
  }
  const o = { empty: await options(servers.empty), full: await options(servers.full) }
  await loadRound({ ...o.empty(), durationSeconds: 1 })
  await loadRound({ ...o.full(), durationSeconds: 1 })
  const rounds: { empty: Figures; full: Figures }[] = []
  for (let r = 0; r < ROUNDS; r++) {
    await waitIdle(servers.empty.child.pid!)
    const e = await loadRound(o.empty())
    await waitIdle(servers.full.child.pid!)
    const f = await loadRound(o.full())
    rounds.push({ empty: e, full: f })
    console.log(
      `  round ${r + 1} ${scenario}: empty ${e.cpuUs.toFixed(1)} µs, full ${f.cpuUs.toFixed(1)} µs CPU/req` +
        ` (${(f.non2xx + f.errors + e.non2xx + e.errors) > 0 ? 'with refusals or errors' : 'all 200'})`,
    )
  }
  return {
    empty: median(rounds.map(r => r.empty.cpuUs)),
    full: median(rounds.map(r => r.full.cpuUs)),
    ratio: median(rounds.map(r => r.full.cpuUs / r.empty.cpuUs)),
  }
}

/** The push to the big tag: its answer, until its deliveries are stored, and another app's p99 meanwhile. */
async function bigTagPush(s: Server) {
  const meanwhile = loadRound({
    url: s.url,
    method: 'POST',
    path: '/v1/messages',
    headers: { authorization: mainAuth },
    body: { template: messageTemplate, start: mobileBlock() },
    connections: 10,
    durationSeconds: 4,
  })
  await sleep(500) // the other app's load under way before the push
  const deliveriesBefore = Number(
    (
      (await callJson(`${s.url}/_sandbox/app/storage`, 'GET', devicesAuth)).body as {
        rows: Record<string, number>
      }
    ).rows.push_deliveries,
  )
  const cpu = cpuSeconds(s.child.pid!)
  const started = performance.now()
  const answer = await callJson(`${s.url}/v3/push`, 'POST', devicesAuth, {
    platform: 'all',
    audience: { tag: ['bench'] },
    notification: { alert: 'scale' },
  })
  const answeredMs = performance.now() - started
  if (answer.status !== 200)
    throw new Error(`tag push answered ${answer.status} ${JSON.stringify(answer.body)}`)
  const msgId = String((answer.body as { msg_id: string | number }).msg_id)
  // Stored deliveries, read through the control plane until the fan-out reached every device: the
  // app's row count (GET /_sandbox/app/storage), not the push's report, which reads every delivery
  // of the push into JavaScript (push/report/counts.ts: seconds at 200 000), and since the answer
  // comes before the slices (issue 32, point 4), would be polled all through the fan-out.
  const stored = async () =>
    Number(
      (
        (await callJson(`${s.url}/_sandbox/app/storage`, 'GET', devicesAuth)).body as {
          rows: Record<string, number>
        }
      ).rows.push_deliveries,
    )
  let delivered = (await stored()) - deliveriesBefore
  const deadline = performance.now() + 300_000
  while (delivered < SIZE.bigApp && performance.now() < deadline) {
    await sleep(100)
    delivered = (await stored()) - deliveriesBefore
  }
  const fannedMs = performance.now() - started
  const other = await meanwhile
  return {
    answeredMs,
    fannedMs,
    delivered,
    cpuMs: (cpuSeconds(s.child.pid!) - cpu) * 1000,
    otherP99: other.p99,
  }
}

/** Sequential calls of one GET: median and p99 in ms. */
async function latency(url: string, auth: string, headers: Record<string, string> = {}) {
  const ms: number[] = []
  for (let i = 0; i < LATENCY_CALLS; i++) {
    const t = performance.now()
    const res = await request(url, { headers: { authorization: auth, ...headers } })
    await res.body.text()
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`)
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  return { p50: median(ms), p99: ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.99) - 1)]! }
}

const spaces: string[] = []
const space = () => {
  const ws = createWorkspace()
  spaces.push(ws.dir)
  return ws
}
const out: Record<string, unknown> = { scale: SCALE, size: SIZE }
try {
  const empty = space()
  const full = space()
  const firstEmpty = await startProduct(empty, { env })
  await firstEmpty.stop()
  console.log(`SCALE=${SCALE}: ${JSON.stringify(SIZE)}`)
  out.fillMs = await fill(full)
  console.log(
    `filled in ${JSON.stringify(out.fillMs, (_, v) => (typeof v === 'number' ? Math.round(v) : v))} ms`,
  )

  const start = await starts(empty, full)
  out.start = start
  console.log(
    `start to first 200: empty ${median(start.empty).toFixed(0)} ms, full ${median(start.full).toFixed(0)} ms; ` +
      `idle RSS empty ${start.emptyRss.toFixed(0)} MiB, full ${start.fullRss.toFixed(0)} MiB`,
  )

  const servers = {
    empty: await startProduct(empty, { env }),
    full: await startProduct(full, { env, logName: 'full.log' }),
  }
  try {
    out.send = await perRequest(servers, 'messages')
    console.log(`send CPU/req: ${JSON.stringify(out.send)}`)
    out.push = await perRequest(servers, 'push')
    console.log(`one-device push CPU/req: ${JSON.stringify(out.push)}`)
    const some = tenantKey(Math.floor(SIZE.apps / 2))
    out.apps = await latency(`${servers.full.url}/_sandbox/apps?limit=50`, operatorAuth)
    out.journal = await latency(
      `${servers.full.url}/_sandbox/requests?status=403&path=/v1&limit=50`,
      operatorAuth,
      {
        'x-sandbox-app': some,
      },
    )
    console.log(
      `GET /_sandbox/apps: ${JSON.stringify(out.apps)} ms; a filtered journal page: ${JSON.stringify(out.journal)} ms`,
    )
    out.bigTag = await bigTagPush(servers.full)
    console.log(`push to the ${SIZE.bigApp}-device tag: ${JSON.stringify(out.bigTag)}`)
    out.fullRssAfter = rssMiB(servers.full.child.pid!)
  } finally {
    await servers.empty.stop()
    await servers.full.stop()
  }
  console.log(JSON.stringify(out))
} finally {
  if (!process.env.BENCH_KEEP) for (const dir of spaces) rmSync(dir, { recursive: true, force: true })
  else console.log(`kept: ${spaces.join(' ')}`)
}
