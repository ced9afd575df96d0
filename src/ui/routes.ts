import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import { sandboxDialect } from '../control/dialect.js'
import { htmlPage } from '../http/html.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import { type Asset, importMapHash, loadAssets } from './assets.js'

// The web UI at /_sandbox/ui/ (docs/web-ui.md): one page and its modules, none of which holds
// anything of an app, so all are served without credentials. The page signs in on a form of its
// own (an app's appKey and masterSecret, or the operator's) and from then on is a client of the
// control plane like any other: it sends those credentials on each call to /_sandbox and follows
// GET /_sandbox/events. No browser prompt: a Basic challenge here would show the browser's bare
// dialog, which says nothing of which credentials work.

/**
 * Only this origin: no CDN, no font or script from elsewhere; never framed (htmlPage adds it: a
 * reset is a click). The one inline script allowed is the page's import map, by its hash.
 */
const csp = (importMap: string) =>
  [
    "default-src 'self'",
    `script-src 'self' ${importMap}`,
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
  let policy: string | undefined
  const page = () => {
    const found = assets().get('index.html')
    if (!found) throw new Error('src/ui/public/index.html is missing')
    policy ??= csp(importMapHash(found))
    return found
  }
  /** A file of the page: any but the page itself, which is only served as the folder's index. */
  const file = (name: string, reply: FastifyReply, ifNoneMatch: string | undefined) => {
    const asset = name.endsWith('.html') ? undefined : assets().get(name)
    if (!asset) throw sandboxDialect.notFound()
    return send(reply, asset, ifNoneMatch)
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
      handler: async (req, reply) => {
        const found = page()
        return send(htmlPage(reply, policy!), found, req.headers['if-none-match'])
      },
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
      handler: async (req, reply) => file(req.params.asset, reply, req.headers['if-none-match']),
    }),
    schemaRoute({
      method: 'GET',
      url: '/:asset/:file',
      config: { public: true },
      docs: {
        summary:
          "A module of the web UI in one of its folders (lib/, components/, views/), or Preact's and htm's (vendor/)",
        description:
          "Needs no credentials: the files hold nothing of any app. vendor/ serves the ES module builds of the preact and htm packages the sandbox depends on, as the page's import map names them.",
        answers: { 200: { description: 'The file.', media: 'application/octet-stream' } },
        errors: [sandboxDialect.notFound()],
      },
      schema: {
        // One name for the first part of both routes: the router keeps them on one node.
        params: z.object({
          asset: z.string().describe('the folder: lib, components, views, or vendor (Preact and htm)'),
          file: z.string().describe('the module in it'),
        }),
      },
      handler: async (req, reply) =>
        file(`${req.params.asset}/${req.params.file}`, reply, req.headers['if-none-match']),
    }),
  ]
}
