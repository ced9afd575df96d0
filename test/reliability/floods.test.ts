import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { basic, createTestApp, newKey } from '../helpers.js'
import { errorOf } from './answers.js'
import { newTenant, SCALE, type Tenant } from './http.js'
import { listRoutes, type RouteInfo } from './routes.js'
import { documentedCodes } from './vendor-codes.js'

// Floods aimed at one tenant by a client that does not hold its secret: wrong, empty and
// malformed secrets with the victim's appKey, over every route of every surface, past every
// window's limit. None may cost the victim anything: its /v3 windows stay whole on every group,
// its report poll is still its own, the sandbox answers each flood call in the vendor envelope
// (never a 5xx), and the flooder's own address is what gets limited (429 2002 on /v3).

const ATTACKER = '10.66.0.1'
const VICTIM_ADDRESS = '10.1.0.1'
/** Calls per /v3 group: past its limit (push-service.md §8: 600 / 600 / 2400 a minute; schedule 100, jpush-api.md §3). */
const FLOOD = { push: 600, device: 600, report: 2400, schedule: 100 }
const EXTRA = 100 * SCALE

// The Beijing data centre's shapes (/v3/device/…, /v3/report/…) are the same groups (§1.1); the
// test devices (/v3/test/model/…) are the device host's, group statistics (/v3/group/…) the report
// host's (docs/jpush-wire.md).
const groupOf = (url: string) =>
  /^\/v3\/(push\/)?schedules/.test(url)
    ? 'schedule'
    : /^\/v3\/(devices|tags|aliases|device|test)\b/.test(url)
      ? 'device'
      : /^\/v3\/(received|status|messages|users|report|group)\b/.test(url)
        ? 'report'
        : 'push'

function concrete(route: RouteInfo, i: number): { method: string; url: string } {
  const method = route.methods[i % route.methods.length]!
  return { method, url: route.url.replace(/:[a-z_]+/g, '1a0018970a8b0fd6c0e') }
}

function wrongAuth(victim: Tenant, i: number): string {
  const forms = [
    basic(victim.key, newKey('wrong')),
    basic(victim.key, ''),
    basic(victim.key, 'short'),
    basic(victim.key, `${victim.secret}x`),
  ]
  return forms[i % forms.length]!
}

async function flood(app: SandboxApp, routes: RouteInfo[], victim: Tenant, calls: number) {
  const answers: Array<{ status: number; code: number | undefined; limited: boolean }> = []
  for (let i = 0; i < calls; i++) {
    const { method, url } = concrete(routes[i % routes.length]!, i)
    const res = await app.inject({
      method: method as 'GET',
      url,
      remoteAddress: ATTACKER,
      headers: { authorization: wrongAuth(victim, i), 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { payload: '{}' }),
    })
    const where = `${method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`
    expect(res.statusCode, where).toBeLessThan(500)
    // The operations endpoints (health, ready, ca.pem) take no credentials and answer 200.
    const failed = method !== 'HEAD' && res.statusCode >= 400
    const code = failed ? (errorOf(url, res.json())?.code as number | undefined) : undefined
    if (failed) expect(documentedCodes(url)?.has(code as number), where).toBe(true)
    if (url.startsWith('/v3')) expect(res.headers['x-rate-limit-limit'], where).toBeDefined()
    answers.push({ status: res.statusCode, code, limited: res.statusCode === 429 })
  }
  return answers
}

describe('wrong-secret floods', () => {
  it(`past every /v3 limit, over every route, leave the victim its whole windows`, {
    timeout: 60_000 * SCALE,
  }, async () => {
    const { app } = await createTestApp()
    const victim = newTenant('victim')
    const as = (url: string) =>
      app.inject({
        method: 'GET',
        url,
        remoteAddress: VICTIM_ADDRESS,
        headers: { authorization: victim.auth },
      })
    expect((await as('/v1/accounts/app')).statusCode).toBe(200) // provisioned
    const routes = listRoutes(app).filter(r => /^\/(v1|v3|_sandbox)\//.test(r.url))

    for (const [group, limit] of Object.entries(FLOOD)) {
      const answers = await flood(
        app,
        routes.filter(r => r.url.startsWith('/v3') && groupOf(r.url) === group),
        victim,
        limit + EXTRA,
      )
      expect(
        answers.slice(0, limit).every(a => !a.limited),
        group,
      ).toBe(true)
      expect(answers.at(-1)?.status, group).toBe(429)
      const limited = answers.filter(a => a.limited && a.code !== undefined)
      expect(limited.length, group).toBeGreaterThan(0)
      expect(
        limited.every(a => a.code === 2002),
        group,
      ).toBe(true)
    }
    const others = routes.filter(r => !r.url.startsWith('/v3'))
    const answers = await flood(app, others, victim, others.length * 3 * SCALE)
    expect(answers.some(a => a.limited)).toBe(false)

    for (const [url, limit] of [
      ['/v3/push/cid', 600],
      ['/v3/tags', 600],
      ['/v3/received?msg_ids=1', 2400],
      ['/v3/schedules', 100],
    ] as const) {
      const res = await as(url)
      expect(res.statusCode, url).toBe(200)
      expect(res.headers['x-rate-limit-remaining'], url).toBe(String(limit - 1))
    }
    expect((await as('/v1/report')).statusCode).toBe(200)
    expect((await as('/_sandbox/clock')).statusCode).toBe(200)
  })
})
