import { afterEach, beforeEach, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'

// mount() sets each scope's error handler once (http/mount.ts): a second one in the same scope is
// Fastify's FSTWRN004 today and an error once Fastify stops allowing the override.

const warnings: Error[] = []
const collect = (w: Error) => warnings.push(w)
beforeEach(() => {
  warnings.length = 0
  process.on('warning', collect)
})
afterEach(() => {
  process.off('warning', collect)
})

it('building the app overrides no error handler, and each surface keeps its envelope', async () => {
  const { app } = await createTestApp()
  await app.ready()
  // process.emitWarning delivers on a later tick.
  await new Promise(resolve => setImmediate(resolve))
  const fastify = warnings.filter(w => (w as { code?: string }).code?.startsWith('FSTWRN'))
  expect(fastify.map(w => `${(w as { code?: string }).code} ${w.message}`)).toEqual([])
  // A body that is not JSON is each host's own 400, rendered by its own handler.
  const bad = (path: string) => call(app, 'POST', path, '{', { 'content-type': 'application/json' })
  expect((await bad('/v1/codes')).body.error.code).toBe(50007)
  expect((await bad('/v3/push')).body.error.code).toBe(1003)
  expect((await bad('/v3/devices/status')).body.error.code).toBe(7002)
  expect((await bad('/v3/status/message')).body.error.code).toBe(3002)
  expect((await bad('/v3/schedules')).body.error.code).toBe(8100)
  expect((await bad('/_sandbox/clock')).status).toBe(400)
})
