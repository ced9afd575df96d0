import { z } from 'zod'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import type { TlsMaterial } from '../tls/index.js'

/** One condition for readiness: `true`, or why not yet. */
export interface ReadinessCheck {
  readonly name: string
  check(): true | string | Promise<true | string>
}

/** Each check by name: `ok`, or why not. */
const readiness = z.object({ status: z.string(), checks: z.record(z.string(), z.string()) })

/**
 * Operations endpoints, public so that container health checks and CI need no credentials:
 * liveness, readiness, and the CA certificate clients must trust for the TLS listener.
 */
export function opsRoutes(deps: { readiness: readonly ReadinessCheck[]; tls: TlsMaterial }): RouteSpec[] {
  return [
    schemaRoute({
      method: 'GET',
      url: '/health',
      config: { public: true },
      docs: {
        summary: 'Liveness: the process answers (no credentials)',
        description:
          'For a container\'s liveness probe: `{"status":"ok"}` whenever the process serves requests.',
      },
      schema: { response: { 200: z.object({ status: z.literal('ok') }) } },
      handler: async () => ({ status: 'ok' as const }),
    }),
    schemaRoute({
      method: 'GET',
      url: '/ready',
      config: { public: true },
      docs: {
        summary: 'Readiness: the database can be written and the scheduler runs (no credentials)',
        description: `200 when every check passes, else 503 with each check's reason (the database file replaced, damaged
or full; the scheduler stopped). For health checks and CI's wait before the tests.`,
      },
      schema: { response: { 200: readiness, 503: readiness } },
      handler: async (_req, reply) => {
        const checks: Record<string, string> = {}
        let ready = true
        for (const { name, check } of deps.readiness) {
          const result = await runCheck(check)
          checks[name] = result === true ? 'ok' : result
          if (result !== true) ready = false
        }
        return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks })
      },
    }),
    // PEM text, not JSON: no answer schema.
    {
      method: 'GET',
      url: '/ca.pem',
      config: { public: true },
      docs: {
        summary: "The local CA's certificate, for clients of the TLS listener to trust (no credentials)",
        description: `PEM. The TLS listener (TLS_PORT) answers as the vendors' hostnames with a certificate this CA
signed: add it to a client's trust store (docs/docker-and-tls.md).`,
        answers: { 200: { description: 'The certificate, PEM.', media: 'application/x-pem-file' } },
      },
      handler: async (_req, reply) =>
        reply
          .type('application/x-pem-file')
          .header('content-disposition', 'inline; filename="jiguang-sandbox-ca.pem"')
          .send(deps.tls.ca().certPem),
    },
  ]
}

// A check that throws is a failed check, never a 500 from the readiness endpoint.
async function runCheck(check: ReadinessCheck['check']): Promise<true | string> {
  try {
    return await check()
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}
