import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import { htmlPage } from '../http/html.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import { sandboxDialect } from '../sandbox/dialect.js'
import { type Asset, loadAssets } from './assets.js'

// The web UI at /_sandbox/ui/ (docs/web-ui.md): one page and its files, none of which holds
// anything of an app, so all are served without credentials. The page signs in on a form of its
// own (an app's appKey and masterSecret, or the operator's) and from then on is a client of the
// control plane like any other: it sends those credentials on each call to /_sandbox and follows
// GET /_sandbox/events. No browser prompt: a Basic challenge here would show the browser's bare
// dialog, which says nothing of which credentials work.

/** Only this origin: no CDN, no font or script from elsewhere; never framed (htmlPage: a reset is a click). */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ')

function send(reply: FastifyReply, asset: Asset, ifNoneMatch: string | undefined): FastifyReply {
  reply
    .header('etag', asset.etag)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
  if (ifNoneMatch === asset.etag) return reply.code(304).send()
  return reply.type(asset.type).send(asset.body)
}

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
      config: { public: true },
      docs: {
        summary: 'The web UI: its sign-in page, then every view of the app signed in',
        description:
          'One page, a client of the control plane like any other (docs/web-ui.md). Needs no credentials: it asks for them on a form of its own (an app, or the operator) and sends them on its calls to /_sandbox.',
        answers: {
          200: { description: 'The page; its files come from this server only.', media: 'text/html' },
        },
      },
      handler: async (req, reply) => send(htmlPage(reply, CSP), page(), req.headers['if-none-match']),
    },
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
