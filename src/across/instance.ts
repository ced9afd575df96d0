import { z } from 'zod'
import type { Config } from '../config.js'
import { SETTINGS, type Setting, type SettingName } from '../config.js'
import { sandboxErrors } from '../control/errors.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import { EXPOSITION_TYPE } from '../metrics/exposition.js'
import type { Metrics } from '../metrics/metrics.js'
import { databaseSize } from '../metrics/metrics.js'
import { NAME, VERSION } from '../package.js'
import type { Store } from '../store/index.js'

// The instance seen from outside, like Mailpit's /api/v1/info and a Prometheus endpoint: what runs
// (GET /info, open) and how it is doing (GET /metrics, the operator's). Neither says anything of one app.

const info = z.object({
  name: z.string(),
  version: z.string(),
  node: z.string(),
  started_at: z.string(),
  uptime_s: z.number(),
  /** The settings whose row says `public` (config.ts), by environment variable. */
  settings: z.record(z.string(), z.unknown()),
  database: z.object({ in_memory: z.boolean(), bytes: z.number(), wal_bytes: z.number() }),
  apps: z.number(),
  /** Whether an operator may sign in (SANDBOX_OPERATOR is not `off`): the web UI's sign-in says so. */
  operator: z.boolean(),
})

export function instanceRoutes(deps: {
  config: Config
  store: Store
  metrics: Metrics
  startedAt: number
}): RouteSpec[] {
  const shown = (Object.entries(SETTINGS) as Array<[SettingName, Setting<unknown>]>).filter(
    ([, s]) => s.public,
  )
  return [
    schemaRoute({
      method: 'GET',
      url: '/info',
      config: { public: true },
      docs: {
        summary: 'What runs: version, start, settings that shape answers, database size, apps',
        description:
          'No credentials. The name and version of the sandbox, when it started and its uptime, the Node version, the settings that shape its answers (auto-provisioning, bounds; never a secret) by their environment names, the database file and its size, how many apps it holds, and whether an operator may sign in (never its credentials).',
      },
      schema: { response: { 200: info } },
      handler: async () => {
        const size = databaseSize(deps.store.db, deps.config.database)
        return {
          name: NAME,
          version: VERSION,
          node: process.versions.node,
          started_at: new Date(deps.startedAt).toISOString(),
          uptime_s: Math.floor((Date.now() - deps.startedAt) / 1000),
          settings: Object.fromEntries(shown.map(([name, s]) => [s.env, deps.config[name] ?? null])),
          database: {
            in_memory: deps.config.database === ':memory:',
            bytes: size.bytes,
            wal_bytes: size.walBytes,
          },
          apps: deps.store.apps.count(),
          operator: deps.config.operator != null,
        }
      },
    }),
    // Prometheus text, not JSON: no answer schema.
    {
      method: 'GET',
      url: '/metrics',
      // The operator's: the figures hold no app's data, but they show every tenant's traffic. On
      // METRICS_PORT (process/run.ts) they are open: that port is the operator's to expose or not.
      config: { auth: 'operator' },
      docs: {
        summary: 'Metrics in the Prometheus text format (requests, latency, held streams, database…)',
        description:
          "The operator's credentials (`SANDBOX_OPERATOR`); without them on `METRICS_PORT`, where `GET /metrics` answers the same. No label names an app.",
        errors: [sandboxErrors.operatorOnly()],
        answers: { 200: { description: 'The exposition, version 0.0.4.', media: 'text/plain' } },
      },
      handler: async (_req, reply) => {
        return reply.type(EXPOSITION_TYPE).header('cache-control', 'no-store').send(deps.metrics.render())
      },
    },
  ]
}
