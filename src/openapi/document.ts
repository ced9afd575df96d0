import { readFileSync } from 'node:fs'
import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import { describeRoute } from './operation.js'

// GET /_sandbox/openapi.json: the whole surface as OpenAPI 3.1, generated from the routes as they
// are registered (@fastify/swagger collects them; operation.ts describes each), never kept by
// hand beside them. Derived 405s are not operations: every path answers its other methods with
// its vendor's "method not allowed", as the description says once.

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string
}

const description = `A local, stateful emulator of the **JSMS SMS REST API v1** (\`/v1\`) and the
**JPush REST API v3** (\`/v3\`), with its own control plane (\`/_sandbox\`) to see and steer what the
real service hides.

- Credentials: HTTP Basic \`appKey:masterSecret\` on every route but the public ones (the default app
  is \`7d431e42dfa6a6d693ac2d04:5e987ac6d2e04d95a9d8f0d1\`; any other well-formed pair creates its
  own app on first use). \`GET /v1/accounts/dev\` takes \`devKey:devSecret\`, \`POST /v3/grouppush\`
  a group's \`group-<groupKey>:<groupMasterSecret>\`.
- Every failure is \`{"error":{"code":…,"message":…}}\` with the vendor's code and HTTP status; each
  operation lists its codes by status. A path answers the methods it does not list with its
  vendor's "method not allowed" (JSMS 405 50018, JPush 405 1001 / 7002 / 3002), and an unknown
  path with its vendor's 404.
- Vendor bodies are read as the official clients send them: JSON whatever the \`Content-Type\`,
  numbers as strings where the clients send them so. The vendors' documents are the reference;
  the README's Fidelity section says where the sandbox had to choose.`

/** Registers the document's generator; before any route, so that it sees them all. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'jiguang-sandbox', version, description },
      components: {
        securitySchemes: {
          app: { type: 'http', scheme: 'basic', description: 'appKey:masterSecret' },
          developer: { type: 'http', scheme: 'basic', description: 'devKey:devSecret' },
          group: { type: 'http', scheme: 'basic', description: 'group-<groupKey>:<groupMasterSecret>' },
        },
        schemas: {
          VendorError: {
            type: 'object',
            description: "The vendors' error envelope; some routes add top-level fields (is_valid, msg_id).",
            required: ['error'],
            properties: {
              error: {
                type: 'object',
                required: ['code', 'message'],
                properties: { code: { type: 'integer' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
      security: [{ app: [] }],
    },
    // OpenAPI 3.1 is JSON Schema 2020-12: `const` is kept as it is.
    convertConstToEnum: false,
    transform: describeRoute,
  })
}
