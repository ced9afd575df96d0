import { statSync } from 'node:fs'
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Clock } from '../clock.js'
import { vendorCodeOf } from '../http/error-handler.js'
import { routeConfig } from '../http/route-config.js'
import type { HeldCounts } from '../limits/held.js'
import { VERSION } from '../package.js'
import type { DueWork } from '../scheduler/due-work.js'
import type { Store } from '../store/index.js'
import { Exposition, Histogram } from './exposition.js'

// What someone running a shared sandbox watches (GET /_sandbox/metrics, or METRICS_PORT): requests
// by surface, status class and vendor code, their latency, what is held open (event streams,
// waiting requests, connections), the apps, the database and its WAL, the event loop's lag, and how
// far behind the due work is. Never a label per app: an app is a label value anyone can mint
// (auto-provisioning), so it would grow the series without bound; per app is the control plane's.

/** Latency buckets, seconds: a plain answer takes well under a millisecond, a held one up to 60 s. */
const LATENCY_BOUNDS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
]

export interface MetricsDeps {
  store: Pick<Store, 'apps' | 'db' | 'due'>
  /** What the process holds for its clients, counted once by the bounds (limits/held.ts). */
  held: { counts(): HeldCounts }
  /** The due-work list (scheduler/due-work.ts): each kind's name and where its due times are. */
  scheduler: { work: readonly Pick<DueWork<never>, 'name' | 'nextDue'>[] }
  clock: Clock
  /** The database file (`:memory:`: its pages are counted instead). */
  database: string
  /** The API surface a request belongs to (`sms`, `push`, `device`…), by its path. */
  surfaceOf(url: string): string
}

export type Metrics = ReturnType<typeof createMetrics>

export function createMetrics(deps: MetricsDeps) {
  const requests = new Map<string, { labels: { surface: string; class: string; code: string }; n: number }>()
  const latency = new Histogram(
    'jiguang_sandbox_request_duration_seconds',
    'Time from a request arriving to its answer sent, by API surface (held waits and event streams included).',
    LATENCY_BOUNDS,
  )
  // The surface of each route, found once: its config object is the same for every request.
  const surfaces = new WeakMap<object, string>()
  let lag: IntervalHistogram | undefined

  function surfaceOf(request: FastifyRequest): string {
    const config = request.is404 ? undefined : routeConfig(request)
    let surface = config && surfaces.get(config)
    if (surface === undefined) {
      surface = deps.surfaceOf(request.url)
      if (config) surfaces.set(config, surface)
    }
    return surface
  }

  return {
    /** A request was answered (the request log's completion, http/request-log.ts). */
    observe(request: FastifyRequest, reply: FastifyReply): void {
      const surface = surfaceOf(request)
      const status = reply.statusCode
      const code = vendorCodeOf(reply)
      const key = `${surface} ${status} ${code ?? ''}`
      const known = requests.get(key)
      if (known) known.n++
      else {
        const cls = `${Math.floor(status / 100)}xx`
        requests.set(key, {
          labels: { surface, class: cls, code: code === undefined ? '' : String(code) },
          n: 1,
        })
      }
      latency.observe(surface, { surface }, reply.elapsedTime / 1000)
    },

    /** The exposition, as of now. */
    render(): string {
      // The event loop is sampled from the first scrape on: an instance nobody scrapes pays nothing.
      if (!lag) {
        lag = monitorEventLoopDelay({ resolution: 10 })
        lag.enable()
      }
      const out = new Exposition()
      out.family('jiguang_sandbox_info', 'gauge', 'Always 1; the labels say which build answers.')
      out.sample('jiguang_sandbox_info', 1, { version: VERSION, node: process.versions.node })

      // Summed per (surface, status class, code): several statuses of one class add up.
      out.family(
        'jiguang_sandbox_requests_total',
        'counter',
        'Requests answered, by API surface, status class and vendor error code ("" for none).',
      )
      const summed = new Map<string, { labels: Record<string, string>; n: number }>()
      for (const { labels, n } of requests.values()) {
        const k = `${labels.surface} ${labels.class} ${labels.code}`
        const s = summed.get(k)
        if (s) s.n += n
        else summed.set(k, { labels, n })
      }
      for (const { labels, n } of summed.values()) out.sample('jiguang_sandbox_requests_total', n, labels)
      latency.writeTo(out)

      const held = deps.held.counts()
      out.family(
        'jiguang_sandbox_held_requests',
        'gauge',
        'Requests held open: wait= reads and event streams.',
      )
      out.sample('jiguang_sandbox_held_requests', held.waiting, { kind: 'wait' })
      out.sample('jiguang_sandbox_held_requests', held.eventStreams, { kind: 'stream' })
      out.family('jiguang_sandbox_connections', 'gauge', 'Open client connections, HTTP and TLS.')
      out.sample('jiguang_sandbox_connections', held.connections)
      out.family('jiguang_sandbox_tls_handshakes', 'gauge', 'TLS handshakes under way.')
      out.sample('jiguang_sandbox_tls_handshakes', held.tlsHandshakes)
      out.family(
        'jiguang_sandbox_closing_connections',
        'gauge',
        'Connections that refused a pipelined burst past its bound and close once they have answered the rest.',
      )
      out.sample('jiguang_sandbox_closing_connections', held.closing)
      out.family(
        'jiguang_sandbox_unread_bytes',
        'gauge',
        'Bytes of answers written and not yet read by their clients.',
      )
      out.sample('jiguang_sandbox_unread_bytes', held.unreadBytes)
      out.family(
        'jiguang_sandbox_refused_total',
        'counter',
        'Newcomers refused by a bound since the start, by bound (docs/reliability.md "Bounds").',
      )
      for (const [bound, n] of Object.entries(held.refused))
        out.sample('jiguang_sandbox_refused_total', n, { bound })
      out.family('jiguang_sandbox_apps', 'gauge', 'Apps the database holds.')
      out.sample('jiguang_sandbox_apps', deps.store.apps.count())

      const size = databaseSize(deps.store.db, deps.database)
      out.family('jiguang_sandbox_database_bytes', 'gauge', 'Size of the database file and of its WAL.')
      out.sample('jiguang_sandbox_database_bytes', size.bytes, { file: 'main' })
      out.sample('jiguang_sandbox_database_bytes', size.walBytes, { file: 'wal' })

      out.family(
        'jiguang_sandbox_due_work_overdue_seconds',
        'gauge',
        'How long the earliest due item of each kind of due work has been waiting (0: nothing overdue).',
      )
      const now = deps.clock.now()
      for (const w of deps.scheduler.work) {
        const due = deps.store.due.earliest(w.nextDue)
        out.sample(
          'jiguang_sandbox_due_work_overdue_seconds',
          due === undefined ? 0 : Math.max(0, now - due) / 1000,
          {
            kind: w.name,
          },
        )
      }

      out.family(
        'jiguang_sandbox_event_loop_lag_seconds',
        'gauge',
        'Event loop delay since the previous scrape (sampled from the first scrape on), by quantile.',
      )
      for (const [q, v] of [
        ['0.5', lag.percentile(50)],
        ['0.99', lag.percentile(99)],
        ['1', lag.max],
      ] as const)
        out.sample('jiguang_sandbox_event_loop_lag_seconds', Number.isFinite(v) ? v / 1e9 : 0, {
          quantile: q,
        })
      lag.reset()

      const cpu = process.cpuUsage()
      out.family('process_cpu_seconds_total', 'counter', 'User and system CPU time of the process.')
      out.sample('process_cpu_seconds_total', (cpu.user + cpu.system) / 1e6)
      out.family('process_resident_memory_bytes', 'gauge', 'Resident memory of the process.')
      out.sample('process_resident_memory_bytes', process.memoryUsage.rss())
      out.family('process_start_time_seconds', 'gauge', 'When the process started, seconds since the epoch.')
      out.sample('process_start_time_seconds', Math.round(performance.timeOrigin) / 1000)
      return out.text()
    },

    /** Stops sampling the event loop (the app closes). */
    close(): void {
      lag?.disable()
    },
  }
}

/** The database's size on disk; an in-memory one's pages. */
export function databaseSize(db: Store['db'], file: string): { bytes: number; walBytes: number } {
  if (file === ':memory:') {
    const pages = db.pragma('page_count', { simple: true }) as number
    const pageSize = db.pragma('page_size', { simple: true }) as number
    return { bytes: pages * pageSize, walBytes: 0 }
  }
  const sizeOf = (path: string) => {
    try {
      return statSync(path).size
    } catch {
      return 0
    }
  }
  return { bytes: sizeOf(file), walBytes: sizeOf(`${file}-wal`) }
}
