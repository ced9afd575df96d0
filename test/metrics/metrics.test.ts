import {
  getMetricsFromIterator,
  type PromData,
  type PromHistogramData,
  type PromMetrics,
} from 'prom2javascript'
import { Agent, request } from 'undici'
import { describe, expect, it, vi } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { listenMetrics } from '../../src/process/metrics-port.js'
import { basic, call, createTestApp, defaultAuth, newKey } from '../helpers.js'
import { listening, openStream } from '../sandbox/real-port.js'

// GET /_sandbox/metrics in the Prometheus text format, read back by a Prometheus text parser
// (prom2javascript: it refuses a line it cannot parse, and keeps a histogram's label sets apart).

async function parse(text: string): Promise<PromMetrics> {
  return getMetricsFromIterator(text.split('\n')[Symbol.iterator]())
}

async function scrape(app: SandboxApp): Promise<PromMetrics> {
  const res = await app.inject({ method: 'GET', url: '/_sandbox/metrics', headers: operator })
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8')
  return parse(res.body)
}

const operator = { authorization: basic('operator', 'operator') }

const samples = (m: PromMetrics, name: string) => (m[name]?.data ?? []) as PromData[]
const value = (m: PromMetrics, name: string, labels: Record<string, string> = {}) =>
  samples(m, name).find(s => Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

describe('GET /_sandbox/metrics', () => {
  it('counts requests by surface, status class and vendor code, and times them, without a label per app', async () => {
    const { app } = await createTestApp()
    const tenant = basic(newKey('met'), newKey('sec'))
    const calls: Array<[surface: string, method: 'GET' | 'POST', url: string, body?: unknown]> = [
      ['sms', 'GET', '/v1/accounts/app'],
      ['sms', 'GET', '/v1/accounts/app'],
      ['sms', 'POST', '/v1/codes', { mobile: '1', temp_id: 1 }],
      ['push', 'POST', '/v3/push', { platform: 'nothing' }],
      ['device', 'GET', '/v3/devices/nobody'],
      ['report', 'GET', '/v3/received?msg_ids=x'],
      ['sandbox', 'GET', '/_sandbox/app'],
      ['sandbox', 'GET', '/_sandbox/nothing-here'],
    ]
    const expected = new Map<string, number>()
    const perSurface = new Map<string, number>()
    for (const [surface, method, url, body] of calls) {
      const res = await call(app, method, url, body, { authorization: tenant })
      const code = res.body?.error?.code === undefined ? '' : String(res.body.error.code)
      const key = JSON.stringify({ surface, class: `${Math.floor(res.status / 100)}xx`, code })
      expected.set(key, (expected.get(key) ?? 0) + 1)
      perSurface.set(surface, (perSurface.get(surface) ?? 0) + 1)
    }
    // Both kinds of answer are there: plain ones and refusals with a vendor code.
    expect([...expected.keys()].some(k => k.includes('"code":""'))).toBe(true)
    expect([...expected.keys()].filter(k => !k.includes('"code":""')).length).toBeGreaterThan(3)

    const m = await scrape(app)
    expect(m.jiguang_sandbox_requests_total?.type).toBe('counter')
    const counted = new Map(
      samples(m, 'jiguang_sandbox_requests_total').map(s => [
        JSON.stringify({ surface: s.labels.surface, class: s.labels.class, code: s.labels.code }),
        s.value,
      ]),
    )
    expect(counted).toEqual(expected)

    const latency = m.jiguang_sandbox_request_duration_seconds!
    expect(latency.type).toBe('histogram')
    const bySurface = new Map((latency.data as PromHistogramData[]).map(h => [h.labels.surface, h]))
    expect(new Map([...bySurface].map(([s, h]) => [s, h.count]))).toEqual(perSurface)
    for (const h of bySurface.values()) {
      expect(h.buckets['+Inf']).toBe(h.count)
      const bounds = Object.keys(h.buckets).sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b))
      const counts = bounds.map(b => h.buckets[b]!)
      expect(counts).toEqual([...counts].sort((a, b) => a - b)) // cumulative
      expect(h.sum).toBeGreaterThan(0)
    }

    // No family has a label that names an app (cardinality: anyone can mint an appKey).
    for (const family of Object.values(m))
      for (const s of family.data as Array<{ labels: Record<string, string> }>)
        expect(Object.keys(s.labels).filter(l => /app/i.test(l))).toEqual([])
    // The scrape itself is counted once it is answered.
    expect(
      value(await scrape(app), 'jiguang_sandbox_requests_total', { surface: 'sandbox', class: '2xx' }),
    ).toBe(2)
  })

  it('shows the apps, the database, how far behind the due work is, and the event loop', async () => {
    const { app, clock } = await createTestApp()
    let m = await scrape(app)
    expect(value(m, 'jiguang_sandbox_apps')).toBe(app.store.apps.count())
    await call(app, 'GET', '/v1/accounts/app', undefined, { authorization: basic(newKey('new'), newKey()) })
    m = await scrape(app)
    expect(value(m, 'jiguang_sandbox_apps')).toBe(app.store.apps.count())
    expect(value(m, 'jiguang_sandbox_apps')).toBe(2)
    const pageSize = app.store.db.pragma('page_size', { simple: true }) as number
    expect(value(m, 'jiguang_sandbox_database_bytes', { file: 'main' })).toBe(
      pageSize * (app.store.db.pragma('page_count', { simple: true }) as number),
    )
    expect(value(m, 'jiguang_sandbox_database_bytes', { file: 'wal' })).toBe(0)
    expect(samples(m, 'jiguang_sandbox_info')).toEqual([
      { labels: { version: expect.stringMatching(/^\d+\.\d+\.\d+/), node: process.versions.node }, value: 1 },
    ])
    expect(samples(m, 'jiguang_sandbox_event_loop_lag_seconds').map(s => s.labels.quantile)).toEqual([
      '0.5',
      '0.99',
      '1',
    ])
    for (const s of samples(m, 'jiguang_sandbox_event_loop_lag_seconds'))
      expect(s.value).toBeGreaterThanOrEqual(0)
    expect(value(m, 'process_resident_memory_bytes')).toBeGreaterThan(0)

    // Every kind of due work, nothing overdue; then a delivery report left waiting 3 s.
    const kinds = app.scheduler.work.map(w => w.name)
    expect(samples(m, 'jiguang_sandbox_due_work_overdue_seconds').map(s => s.labels.kind)).toEqual(kinds)
    for (const s of samples(m, 'jiguang_sandbox_due_work_overdue_seconds')) expect(s.value).toBe(0)
    const sent = await call(app, 'POST', '/v1/messages', {
      mobile: '13800138000',
      temp_id: 2,
      temp_para: { order: 'M1', days: '1' },
    })
    expect(sent.status).toBe(200)
    await app.scheduler.stop() // nothing runs what falls due: it stays overdue
    clock.advance(2_000 + 3_000) // REPORT_DELAY_MS, then 3 s more
    m = await scrape(app)
    expect(value(m, 'jiguang_sandbox_due_work_overdue_seconds', { kind: 'reports' })).toBe(3)
  })

  it('shows held waits, event streams and connections as they open and close', async () => {
    const s = await listening()
    const m0 = await scrape(s.app)
    expect(value(m0, 'jiguang_sandbox_held_requests', { kind: 'wait' })).toBe(0)
    expect(value(m0, 'jiguang_sandbox_held_requests', { kind: 'stream' })).toBe(0)
    expect(value(m0, 'jiguang_sandbox_connections')).toBe(0)

    // A client of its own, whose connections the test ends.
    const agent = new Agent()
    const waiting = request(`${s.url}/_sandbox/sms/messages?mobile=13800138000&wait=20000`, {
      dispatcher: agent,
      headers: { authorization: defaultAuth },
    })
    const stream = await openStream(s.url, agent)
    await vi.waitFor(() => expect(s.app.held.counts()).toMatchObject({ waiting: 1, eventStreams: 1 }), {
      timeout: 10_000,
    })
    const m1 = await scrape(s.app)
    expect(value(m1, 'jiguang_sandbox_held_requests', { kind: 'wait' })).toBe(1)
    expect(value(m1, 'jiguang_sandbox_held_requests', { kind: 'stream' })).toBe(1)
    // The held list's and the stream's, and the keep-alive ones that answered before.
    expect(value(m1, 'jiguang_sandbox_connections')).toBeGreaterThanOrEqual(2)

    const sent = await request(`${s.url}/v1/messages`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: defaultAuth },
      body: JSON.stringify({ mobile: '13800138000', temp_id: 2, temp_para: { order: 'A', days: '1' } }),
    })
    expect(sent.statusCode).toBe(200)
    await sent.body.dump()
    expect(((await (await waiting).body.json()) as { messages: unknown[] }).messages).toHaveLength(1)
    await stream.close()
    await vi.waitFor(() => expect(s.app.held.counts()).toMatchObject({ waiting: 0, eventStreams: 0 }), {
      timeout: 10_000,
    })
    await agent.close()
    await vi.waitFor(async () => expect(value(await scrape(s.app), 'jiguang_sandbox_connections')).toBe(0), {
      timeout: 10_000,
    })
    expect(value(await scrape(s.app), 'jiguang_sandbox_held_requests', { kind: 'wait' })).toBe(0)
  })

  it('counts the newcomers each bound refused', async () => {
    const s = await listening({}, { maxEventStreamsPerApp: 1 })
    const agent = new Agent()
    const first = await openStream(s.url, agent)
    const second = await request(`${s.url}/_sandbox/events`, {
      dispatcher: agent,
      headers: { authorization: defaultAuth, accept: 'text/event-stream' },
    })
    expect(second.statusCode).toBe(429)
    await second.body.dump()
    const m = await scrape(s.app)
    expect(value(m, 'jiguang_sandbox_refused_total', { bound: 'event streams per app' })).toBe(1)
    expect(value(m, 'jiguang_sandbox_held_requests', { kind: 'stream' })).toBe(1)
    await first.close()
    await agent.close()
  })
})

describe('who may read the metrics', () => {
  it("takes the operator's credentials on the API's port, and refuses anyone else's", async () => {
    const { app } = await createTestApp()
    const get = (headers: Record<string, string>) => call(app, 'GET', '/_sandbox/metrics', undefined, headers)
    const none = await app.inject({ method: 'GET', url: '/_sandbox/metrics' })
    expect(none.statusCode).toBe(401)
    expect(none.json().error.code).toBe(90001)
    const anApp = await get({ authorization: defaultAuth })
    expect(anApp.status).toBe(403)
    expect(anApp.body.error.code).toBe(90006)
    const wrong = await get({ authorization: basic('operator', 'nope') })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe(90002)
    expect((await get(operator)).status).toBe(200)
    // No operator: the metrics are METRICS_PORT's alone.
    const { app: closed } = await createTestApp({ operator: null })
    expect((await call(closed, 'GET', '/_sandbox/metrics', undefined, operator)).status).toBe(401)
  })
})

describe('METRICS_PORT', () => {
  it('answers GET /metrics alone, without credentials; anything else there is a 404', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/v1/accounts/app')
    const port = await listenMetrics(app.metrics, { port: 0, host: '127.0.0.1' })
    try {
      expect(port.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
      const res = await fetch(port.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
      const m = await parse(await res.text())
      expect(value(m, 'jiguang_sandbox_requests_total', { surface: 'sms', class: '2xx' })).toBe(1)
      const base = port.url.replace(/\/metrics$/, '')
      expect((await fetch(`${base}/_sandbox/metrics`)).status).toBe(200)
      expect((await fetch(`${base}/v1/accounts/app`)).status).toBe(404)
      expect((await fetch(port.url, { method: 'POST' })).status).toBe(404)
    } finally {
      await port.close()
    }
  })
})
