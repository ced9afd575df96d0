import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { createTestApp } from '../helpers.js'
import { listRoutes } from '../reliability/routes.js'

// GET /_sandbox/openapi.json describes every route Fastify has registered, and is valid OpenAPI
// 3.1. A route missing from it fails here by name, and so does a /v1 or /v3 route that is not
// declared with vendorRoute (src/http/routes.ts), from which its operation is derived.

type Operation = {
  summary?: string
  description?: string
  security?: unknown[]
  requestBody?: unknown
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }>
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> }

async function documentOf() {
  const { app } = await createTestApp()
  const res = await app.inject({ method: 'GET', url: '/_sandbox/openapi.json' })
  expect(res.statusCode).toBe(200)
  return { app, doc: res.json() as Document }
}

const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}')

describe('the OpenAPI document', () => {
  it('gives every control-plane operation a summary, a description and its failures', async () => {
    const { doc } = await documentOf()
    const lacking: string[] = []
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/_sandbox')) continue
      for (const [method, op] of Object.entries(operations)) {
        const failures = Object.keys(op.responses).filter(s => Number(s) >= 400)
        if (!op.summary || !op.description || failures.length === 0)
          lacking.push(`${method.toUpperCase()} ${path}`)
      }
    }
    expect(lacking).toEqual([])
    // A route's own failures are listed with the surface's, the operator's among them.
    const imports = doc.paths['/_sandbox/app/import']!.post!.responses
    expect(JSON.stringify(imports['409'])).toContain('90056')
    expect(JSON.stringify(imports['403'])).toContain('90006')
    expect(JSON.stringify(doc.paths['/_sandbox/clock']!.post!.responses['409'])).toContain('90053')
  })

  it('is valid OpenAPI 3.1', async () => {
    const { doc } = await documentOf()
    expect(doc.openapi).toBe('3.1.0')
    const result = await new Validator().validate(doc as never)
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('has every route of the route tree; what it leaves out is a derived 405', async () => {
    const { app, doc } = await documentOf()
    const missing: string[] = []
    let documented = 0
    for (const { url, methods } of listRoutes(app)) {
      for (const method of methods.filter(m => m !== 'HEAD')) {
        if (doc.paths[toOpenApiPath(url)]?.[method.toLowerCase()]) {
          documented++
          continue
        }
        // Not in the document: it must be one of the "method not allowed" answers routes.ts derives.
        const res = await app.inject({ method: method as 'GET', url: url.replace(/:[A-Za-z_]+/g, 'x') })
        if (res.statusCode !== 405) missing.push(`${method} ${url} (answers ${res.statusCode})`)
      }
    }
    expect(missing, 'routes missing from /_sandbox/openapi.json').toEqual([])
    expect(documented).toBeGreaterThan(60)
  })

  it('documents each /v1 and /v3 route: summary, body, answer, failures, rate headers', async () => {
    const { doc } = await documentOf()
    const problems: string[] = []
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!/^\/v[13]\//.test(path)) continue
      for (const [method, op] of Object.entries(operations)) {
        const name = `${method.toUpperCase()} ${path}`
        if (!op.summary)
          problems.push(`${name} has no summary: declare it with vendorRoute (src/http/routes.ts)`)
        if (['post', 'put', 'patch'].includes(method) && !op.requestBody)
          problems.push(`${name} documents no body`)
        if (!Object.keys(op.responses).some(s => s.startsWith('2')))
          problems.push(`${name} documents no answer`)
        if (!op.responses['401']) problems.push(`${name} documents no authentication failure`)
        if (path.startsWith('/v3/'))
          for (const [status, answer] of Object.entries(op.responses))
            if (!answer.headers?.['X-Rate-Limit-Remaining'])
              problems.push(`${name} ${status} has no rate headers`)
      }
    }
    expect(problems).toEqual([])
  })

  it("shows each failure in the vendor's envelope, with the route's own codes", async () => {
    const { doc } = await documentOf()
    const verify = doc.paths['/v1/codes/{msg_id}/valid']!.post!
    const examples = (verify.responses['403']!.content!['application/json'] as { examples: object }).examples
    expect(examples).toMatchObject({
      '50010 invalid code': { value: { is_valid: false, error: { code: 50010, message: 'invalid code' } } },
    })
    expect(Object.keys(examples)).toEqual(
      expect.arrayContaining(['50011 expired code', '50012 verified code']),
    )
    const push = doc.paths['/v3/push']!.post!
    expect(push.responses['429']).toBeDefined()
    expect(push.responses['400']!.content!['application/json']).toMatchObject({
      schema: { $ref: '#/components/schemas/VendorError' },
    })
    // Credentials: Basic by default, devKey:devSecret for the developer's balance, none when public.
    expect(doc.paths['/v1/accounts/dev']!.get!.security).toEqual([{ developer: [] }])
    expect(doc.paths['/_sandbox/health']!.get!.security).toEqual([])
  })

  it("the Beijing data centre's paths are the same operations; group push takes a group's credentials", async () => {
    const { doc } = await documentOf()
    const same = [
      ['post', '/v3/schedules', '/v3/push/schedules'],
      ['put', '/v3/schedules/{schedule_id}', '/v3/push/schedules/{schedule_id}'],
      ['get', '/v3/schedules/{schedule_id}/msg_ids', '/v3/push/schedules/{schedule_id}/msg_ids'],
      ['get', '/v3/users', '/v3/report/users'],
      ['get', '/v3/received', '/v3/report/received'],
      ['get', '/v3/devices/{registration_id}', '/v3/device/{registration_id}'],
      ['get', '/v3/tags', '/v3/device/tags'],
    ] as const
    for (const [method, path, beijing] of same) {
      const { operationId: _, ...operation } = doc.paths[path]![method]! as Operation & {
        operationId: string
      }
      const { operationId: __, ...alias } = doc.paths[beijing]![method]! as Operation & {
        operationId: string
      }
      expect(alias, beijing).toEqual(operation)
    }
    const group = doc.paths['/v3/grouppush']!.post!
    expect(group.security).toEqual([{ group: [] }])
    // A member's standing refuses that member alone, in the 200 answer.
    expect(Object.keys(group.responses)).toEqual(['200', '400', '401', '429', '500'])
  })
})

describe('GET /_sandbox/docs', () => {
  it('renders the document from files this server serves, without credentials', async () => {
    const { app } = await createTestApp()
    const page = await app.inject({ method: 'GET', url: '/_sandbox/docs' })
    expect(page.statusCode).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    // One link leaves the page: back to the web UI (docs/web-ui.md), which links here.
    expect(page.body).toContain('<a href="/_sandbox/ui/">')
    const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map(m => m[1]!)
      .filter(r => r !== '/_sandbox/ui/')
    expect(refs.length).toBeGreaterThanOrEqual(4)
    for (const ref of refs) {
      expect(ref, 'nothing from elsewhere').toMatch(/^\/_sandbox\/docs\//)
      const asset = await app.inject({ method: 'GET', url: ref })
      expect(asset.statusCode, ref).toBe(200)
      expect(asset.body.length, ref).toBeGreaterThan(100)
    }
    const init = await app.inject({ method: 'GET', url: '/_sandbox/docs/init.js' })
    expect(init.body).toContain("url: '/_sandbox/openapi.json'")
    const other = await app.inject({ method: 'GET', url: '/_sandbox/docs/package.json' })
    expect(other.statusCode).toBe(404)
    expect(other.json()).toEqual({ error: { code: 90004, message: 'no such endpoint under /_sandbox' } })
  })
})
