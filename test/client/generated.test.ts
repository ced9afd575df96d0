import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { CLIENT_TYPES, generateClientTypes } from '../../scripts/client-types.js'

// The client's answers are read out of client/src/openapi.ts, generated from the routes' schemas:
// a schema changed without `npm run client:types` would leave the client's types behind.
it("client/src/openapi.ts is what `npm run client:types` generates from today's routes", async () => {
  const committed = readFileSync(CLIENT_TYPES, 'utf8')
  const generated = await generateClientTypes()
  expect(committed === generated, 'client/src/openapi.ts is stale: run `npm run client:types`').toBe(true)
}, 60_000)
