import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import type { AuthHooks } from '../http/auth/auth.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import { sandboxDialect } from '../sandbox/dialect.js'
import { type Asset, loadAssets } from './assets.js'

// The web UI at /_sandbox/ui/ (README "Web UI"): one page, signed in with the app's own Basic
// credentials, and its files. The page is a client of the control plane like any other: it reads
// and steers through /_sandbox and follows GET /_sandbox/events.

/** Only this origin: no CDN, no font or script from elsewhere; never framed (a reset is a click). */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * A 401 under /_sandbox/ui carries a Basic challenge (RFC 7617), so that a browser opening the page
 * asks for the appKey and masterSecret itself, and keeps them for the UI's other requests.
 */
export function basicChallenge(surface: FastifyInstance): AuthHooks {
  surface.addHook('onSend', async (_req, reply, payload) => {
    if (reply.statusCode === 401)
      reply.header('www-authenticate', 'Basic realm="jiguang-sandbox", charset="UTF-8"')
    return payload
  })
  return {}
}

function send(reply: FastifyReply, asset: Asset, ifNoneMatch: string | undefined): FastifyReply {
  reply
    .header('etag', asset.etag)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
  if (ifNoneMatch === asset.etag) return reply.code(304).send()
  return reply.type(asset.type).send(asset.body)
}

const session = z.object({
  app_key: z.string(),
  /** The page sends it as Basic credentials to the control plane, which has no cookie. */
  master_secret: z.string(),
})

export function uiRoutes(): RouteSpec[] {
  // Read on the UI's first request: the start does not need them (docs/performance.md, round 2).
  let loaded: ReadonlyMap<string, Asset> | undefined
  const assets = () => (loaded ??= loadAssets())
  const page = () => {
    const found = assets().get('index.html')
    if (!found) throw new Error('src/ui/public/index.html is missing')
    return found
  }
  return [
    {
      method: 'GET',
      url: '/',
      docs: {
        summary: 'The web UI (a browser asks for the credentials: appKey and masterSecret)',
        description:
          'One page, a client of the control plane like any other (docs/web-ui.md); its 401 asks a browser for Basic credentials.',
        answers: {
          200: { description: 'The page; its files come from this server only.', media: 'text/html' },
        },
      },
      handler: async (req, reply) =>
        send(reply.header('content-security-policy', CSP), page(), req.headers['if-none-match']),
    },
    schemaRoute({
      method: 'GET',
      url: '/session',
      docs: {
        summary: 'The credentials the page was opened with, for its calls to the control plane',
        description:
          'The control plane has no cookie: the page sends these as Basic credentials. Never cached.',
      },
      schema: { response: { 200: session } },
      handler: async (req, reply) => {
        reply.header('cache-control', 'no-store')
        return { app_key: req.tenant.app.appKey, master_secret: req.tenant.app.masterSecret }
      },
    }),
    schemaRoute({
      method: 'GET',
      url: '/:asset',
      config: { public: true },
      docs: {
        summary: 'A file of the web UI (its scripts, style sheet and icon)',
        description: 'Needs no credentials: the files hold nothing of any app.',
        answers: { 200: { description: 'The file.', media: 'application/octet-stream' } },
        errors: [sandboxDialect.notFound()],
      },
      schema: { params: z.object({ asset: z.string() }) },
      handler: async (req, reply) => {
        const asset = req.params.asset.endsWith('.html') ? undefined : assets().get(req.params.asset)
        if (!asset) throw sandboxDialect.notFound()
        return send(reply, asset, req.headers['if-none-match'])
      },
    }),
  ]
}
