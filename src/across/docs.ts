import { createReadStream, existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { sandboxDialect } from '../control/dialect.js'
import { htmlPage } from '../http/html.js'
import type { RouteSpec } from '../http/routes.js'
import { schemaRoute } from '../http/schema.js'
import type { OpenApiDocument } from '../openapi/document.js'
import { PACKAGE_DIR } from '../package.js'

// The API described (GET /openapi.json, openapi/document.ts) and rendered (GET /docs) by Swagger
// UI: nothing from a CDN, no font or script from elsewhere (the page's Content-Security-Policy
// allows only this origin). Both are public, like /health: the document holds no secret, and a
// person exploring has no credentials yet.

/**
 * Swagger UI's files: copied into dist/swagger-ui/ by the build (scripts/bundle.ts, copySwaggerUi),
 * which is what the package and the image ship; from source (tsx, the tests), the swagger-ui-dist
 * dev dependency itself. Not a dependency of the package: it would install @scarf/scarf, whose
 * install script reports each install to a third party. Found on the page's first request.
 */
let dist: string | undefined
function distDir(): string {
  const built = join(PACKAGE_DIR, 'dist', 'swagger-ui')
  dist ??= existsSync(built)
    ? built
    : dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  return dist
}

/** The files of the page, by name: anything else under /docs/ is no route. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>jiguang-sandbox API</title>
  <link rel="stylesheet" href="/_sandbox/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/_sandbox/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <p style="margin: 8px 20px; font-family: sans-serif"><a href="/_sandbox/ui/">← the web UI</a></p>
  <div id="swagger-ui"></div>
  <script src="/_sandbox/docs/swagger-ui-bundle.js"></script>
  <script src="/_sandbox/docs/init.js"></script>
</body>
</html>
`

// validatorUrl null: Swagger UI would otherwise show a badge fetched from validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/_sandbox/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: true,
})
`

/** Only this origin; Swagger UI sets inline styles on its elements; never framed (htmlPage). */
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'"

export function docsRoutes({ openApiDocument }: { openApiDocument: OpenApiDocument }): RouteSpec[] {
  let text: Promise<Buffer> | undefined
  return [
    {
      method: 'GET',
      url: '/openapi.json',
      config: { public: true },
      docs: {
        summary: 'This API as an OpenAPI 3.1 document',
        description:
          'Every route of /v1, /v3 and /_sandbox, generated from the routes as registered: feed it to a client generator or a contract test.',
        answers: { 200: { description: 'The OpenAPI 3.1 document (JSON).', media: 'application/json' } },
      },
      // One Buffer for every request: ~600 KB that would otherwise be serialised again for each
      // (CPU), and copied into each answer a client has not read yet (memory: a string is joined
      // with its headers and encoded again per answer; a Buffer is written as it is).
      handler: async (_req, reply) => {
        text ??= openApiDocument().then(doc => Buffer.from(JSON.stringify(doc)))
        const sent = await text.catch(err => {
          text = undefined // not kept: the next request tries again
          throw err
        })
        return reply.type('application/json; charset=utf-8').send(sent)
      },
    },
    {
      method: 'GET',
      url: '/docs',
      config: { public: true },
      docs: {
        summary: 'This API, rendered (Swagger UI)',
        description:
          'Served by the sandbox itself from the swagger-ui-dist package: nothing is fetched from elsewhere.',
        answers: {
          200: { description: 'The page; its files come from this server only.', media: 'text/html' },
        },
      },
      handler: async (_req, reply) => htmlPage(reply, CSP).type('text/html; charset=utf-8').send(PAGE),
    },
    schemaRoute({
      method: 'GET',
      url: '/docs/:asset',
      config: { public: true },
      docs: {
        summary: "A file of the docs page (Swagger UI's, from the swagger-ui-dist package)",
        description: 'The scripts and style sheet the docs page loads; any other name is the 404 90004.',
        answers: { 200: { description: 'The file.', media: 'application/octet-stream' } },
        errors: [sandboxDialect.notFound()],
      },
      schema: {
        params: z.object({ asset: z.string().describe(`init.js, ${Object.keys(ASSETS).join(', ')}`) }),
      },
      handler: async (req, reply) => {
        const { asset } = req.params
        if (asset === 'init.js') return reply.type('application/javascript; charset=utf-8').send(INIT)
        const type = Object.hasOwn(ASSETS, asset) ? ASSETS[asset] : undefined
        if (!type) throw sandboxDialect.notFound()
        return reply
          .type(type)
          .header('cache-control', 'public, max-age=3600')
          .send(createReadStream(join(distDir(), asset)))
      },
    }),
  ]
}
