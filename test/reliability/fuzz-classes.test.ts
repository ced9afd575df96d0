import { beforeEach, describe, expect, it, onTestFailed } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { call, createTestApp } from '../helpers.js'
import { trickle } from '../http/raw-socket.js'
import { ANDROID_1 } from '../push/helpers.js'
import { expectNothingUncaught } from '../uncaught.js'
import { expectVendorAnswer } from './answers.js'
import { bigIntegerSweep, deepFieldSweep, type RawBody, unclosedFormSweep } from './fuzz-hostile.js'
import { newTenant } from './http.js'
import { listRoutes, type RouteInfo } from './routes.js'
import { documentedCodes } from './vendor-codes.js'

// The classes of input that once answered 500 or ended the process (issue 9), swept over every
// route the app registers that takes a body, each route as a fresh tenant (so no rate limit
// hides a handler): one field nested deep, big integers in every numeric field, multipart forms
// that end early, and bodies that arrive too slowly (real sockets). Never a 5xx, always the
// vendor's envelope with a code it documents, and the app still works afterwards. The contents
// are drawn by fast-check: FUZZ_SEED=<n> replays a run.

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
const BODY_METHODS = ['POST', 'PUT', 'PATCH']
const IDS: Record<string, string> = {
  registration_id: ANDROID_1,
  schedule_id: '00000000-0000-4000-8000-000000000000',
}

const concrete = (pattern: string) => pattern.replace(/:([^/]+)/g, (_m, name: string) => IDS[name] ?? '1')

function bodyRoutes(app: SandboxApp): RouteInfo[] {
  return listRoutes(app).filter(
    r => /^\/(v1|v3|_sandbox)(\/|$)/.test(r.url) && r.methods.some(m => BODY_METHODS.includes(m)),
  )
}

/** Runs every body on every body route; fails on any 5xx, and on any exception nobody caught. */
const sweep = (app: SandboxApp, bodies: RawBody[]) => expectNothingUncaught(() => sendAll(app, bodies))

async function sendAll(app: SandboxApp, bodies: RawBody[]): Promise<number> {
  let sent = 0
  for (const route of bodyRoutes(app)) {
    const { auth } = newTenant('fz')
    const url = concrete(route.url)
    for (const method of route.methods.filter(m => BODY_METHODS.includes(m))) {
      for (const { contentType, body } of bodies) {
        const res = await app.inject({
          method: method as 'POST',
          url,
          headers: { authorization: auth, 'content-type': contentType },
          payload: body,
        })
        sent++
        // A generated body could arm a fault (a chosen failure, 5xx included): disarm at once.
        if (url.includes('faults'))
          await app.inject({ method: 'DELETE', url: '/_sandbox/faults', headers: { authorization: auth } })
        expectVendorAnswer(method, url, res)
      }
    }
  }
  return sent
}

async function stillWorks(app: SandboxApp): Promise<void> {
  const sent = await call(app, 'POST', '/v1/messages', {
    mobile: '13800138000',
    temp_id: 2,
    temp_para: { order: 'F', days: '1' },
  })
  expect(sent.status).toBe(200)
  const pushed = await call(app, 'POST', '/v3/push', {
    platform: 'all',
    audience: 'all',
    notification: { alert: 'x' },
  })
  expect(pushed.status).toBe(200)
}

describe('hostile classes on every route that takes a body', () => {
  beforeEach(() => {
    onTestFailed(() => console.error(`replay with FUZZ_SEED=${SEED}`))
  })

  it.each([
    ['one field nested deep', deepFieldSweep],
    ['multipart forms that end early', unclosedFormSweep],
  ])('%s: never a 5xx, never a crash', { timeout: 120_000 }, async (_class, bodies) => {
    const { app } = await createTestApp()
    expect(bodyRoutes(app).map(r => r.url)).toEqual(
      expect.arrayContaining(['/v1/sign', '/v1/sign/:sign_id', '/v3/push', '/_sandbox/push/devices']),
    )
    expect(await sweep(app, bodies(SEED))).toBeGreaterThan(100)
    await stillWorks(app)
  })

  it('big integers in every numeric field: never a 5xx; a msg_id among them is read exactly', {
    timeout: 120_000,
  }, async () => {
    const { app } = await createTestApp()
    expect(await sweep(app, bigIntegerSweep(SEED))).toBeGreaterThan(100)
    await stillWorks(app)
    // Where a big integer means something, a 17-digit msg_id as Java sends it, it is exact.
    const pushBody = {
      platform: 'all',
      audience: { registration_id: [ANDROID_1] },
      notification: { alert: 'x' },
    }
    let msg_id: string
    do msg_id = (await call(app, 'POST', '/v3/push', pushBody)).body.msg_id
    while (String(Number(msg_id)) === msg_id) // one a double holds exactly would prove nothing
    const raw = `{"msg_id":${msg_id},"registration_ids":["${ANDROID_1}"]}`
    expect((await call(app, 'POST', '/v3/status/message', raw)).body).toEqual({ [ANDROID_1]: { status: 0 } })
  })

  it('bodies that arrive too slowly, on every route at once: answered, never a 5xx', {
    timeout: 60_000,
  }, async () => {
    const { app } = await createTestApp({ requestTimeoutMs: 300 })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const routes = listRoutes(app).filter(r => /^\/(v1|v3|_sandbox)(\/|$)/.test(r.url))
    const { auth } = newTenant('slow')
    const answers = await Promise.all(
      routes.map(async route => {
        const method = route.methods.find(m => BODY_METHODS.includes(m)) ?? route.methods[0]!
        const url = concrete(route.url)
        const { answer } = await trickle(port, { method, url, auth, length: 10_000 })
        return { method, url, answer }
      }),
    )
    for (const { method, url, answer } of answers) {
      const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map(m => Number(m[1]))
      expect(statuses.length, `${method} ${url}: ${answer.slice(0, 200)}`).toBeGreaterThan(0)
      for (const status of statuses) expect(status, `${method} ${url}`).toBeLessThan(500)
      // The body never came: the last answer is the request timeout, in the path's envelope.
      const last = answer.slice(answer.lastIndexOf('HTTP/1.1 '))
      expect(last, `${method} ${url}`).toMatch(/^HTTP\/1\.1 408 /)
      const body = JSON.parse(last.slice(last.indexOf('\r\n\r\n') + 4))
      expect(documentedCodes(url)?.has(body.error.code), `${method} ${url}: ${last}`).toBe(true)
    }
    await stillWorks(app)
  })
})
