import type Swagger from '@fastify/swagger'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import { lazy } from '../lazy.js'
import { VERSION } from '../package.js'
import { describeRoute } from './operation.js'

// GET /_sandbox/openapi.json: the whole surface as OpenAPI 3.1, generated from the routes as they
// are registered (@fastify/swagger; operation.ts describes each), never kept by hand beside them.
// Derived 405s are not operations: every path answers its other methods with its vendor's "method
// not allowed", as the description says once.
//
// The start only notes each route (a push per route): @fastify/swagger, and through it yaml (≈ 40
// ms and 9 MiB), is loaded when the document is first asked for (docs/performance.md, round 2).
const swagger = lazy<typeof Swagger>('@fastify/swagger')

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
  path with its vendor's 404. An operation's own failures are also listed in the order it checks
  them, as \`x-failure-order\`: that order is the vendor's, and part of what the sandbox emulates.
- Vendor bodies are read as the official clients send them: JSON whatever the \`Content-Type\`,
  numbers as strings where the clients send them so. The vendors' documents are the reference;
  the README's Fidelity section says where the sandbox had to choose.`

/** The document, generated on first use; cached, as the routes cannot change once the app is ready. */
export type OpenApiDocument = () => Promise<unknown>

/** Notes every route registered from now on: call it before any route, so that it sees them all. */
export function collectOperations(app: FastifyInstance): OpenApiDocument {
  const routes: RouteOptions[] = []
  // What @fastify/swagger keeps (it leaves out the HEAD routes Fastify adds for each GET).
  app.addHook('onRoute', route => {
    if (route.method !== 'HEAD') routes.push(route)
  })
  let document: Promise<unknown> | undefined
  return () => {
    // A failure is not kept: the next request tries again.
    document ??= generate(routes).catch(err => {
      document = undefined
      throw err
    })
    return document
  }
}

/**
 * @fastify/swagger documents the routes of the instance it is registered on, as they are added:
 * a scratch instance gets the same route options, in the same order, and is never listened on.
 * Its routes are not validated or answered, so their schemas are not compiled. Every schema is
 * the route's own (nothing is shared through `addSchema`), so the routes carry all there is to say.
 */
async function generate(routes: readonly RouteOptions[]): Promise<unknown> {
  const scratch = Fastify({ exposeHeadRoutes: false })
  scratch.setValidatorCompiler(() => () => true)
  scratch.setSerializerCompiler(() => data => JSON.stringify(data))
  await scratch.register(swagger(), options)
  for (const route of routes) scratch.route({ ...route })
  await scratch.ready()
  const document = scratch.swagger()
  await scratch.close()
  return document
}

const options: Parameters<typeof Swagger>[1] = {
  openapi: {
    openapi: '3.1.0',
    info: { title: 'jiguang-sandbox', version: VERSION, description },
    components: {
      securitySchemes: {
        app: { type: 'http', scheme: 'basic', description: 'appKey:masterSecret' },
        developer: { type: 'http', scheme: 'basic', description: 'devKey:devSecret' },
        group: { type: 'http', scheme: 'basic', description: 'group-<groupKey>:<groupMasterSecret>' },
        operator: {
          type: 'http',
          scheme: 'basic',
          description:
            "The operator's user:password (SANDBOX_OPERATOR, operator:operator unless set): lists every app " +
            '(GET /_sandbox/apps) and acts on any app of the control plane named by `X-Sandbox-App: <appKey>`. ' +
            'Never on /v1 or /v3.',
        },
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
}
