import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { lazySchemaCompilers } from '../../src/http/lazy-compilers.js'

// The product hands Fastify its default compilers as factories that load on first use
// (src/http/lazy-compilers.ts). A route that does use a JSON Schema must still get ajv's
// validation and fast-json-stringify's serialization, exactly as with Fastify's defaults.
describe("Fastify's default schema compilers, loaded on first use", () => {
  it('validate a JSON Schema body and serialize a response schema', async () => {
    const app = Fastify({ schemaController: lazySchemaCompilers })
    app.post(
      '/echo',
      {
        schema: {
          body: {
            type: 'object',
            required: ['n'],
            properties: { n: { type: 'integer', minimum: 1 } },
          },
          response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } },
        },
      },
      async req => ({ ...(req.body as object), secret: 'not in the response schema' }),
    )
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { n: 2 } })
    expect(ok.statusCode).toBe(200)
    expect(ok.json()).toEqual({ n: 2 })
    const bad = await app.inject({ method: 'POST', url: '/echo', payload: { n: 0 } })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ code: 'FST_ERR_VALIDATION', message: 'body/n must be >= 1' })
    await app.close()
  })
})
