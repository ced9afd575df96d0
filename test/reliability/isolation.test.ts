import { describe, expect, it } from 'vitest'
import { call, createTestApp } from '../helpers.js'
import { newTenant } from './http.js'
import { listRoutes } from './routes.js'

// One app can never read or change another's data, through any route the app has (read from the
// app itself, so /v3 and the rest of /_sandbox are covered as they land), and bodies are bounded.

describe('tenant isolation', () => {
  it("app B, using app A's ids everywhere, sees nothing of A and changes nothing of A", async () => {
    const { app } = await createTestApp()
    const a = newTenant('alice')
    const b = newTenant('bob')
    const as = (t: typeof a) => ({ authorization: t.auth })
    const mobile = '13912345678'
    const sentCode = await call(app, 'POST', '/v1/codes', { mobile, temp_id: 1 }, as(a))
    const sentText = await call(
      app,
      'POST',
      '/v1/messages',
      { mobile, temp_id: 2, temp_para: { order: 'SECRET42', days: '9' } },
      as(a),
    )
    expect([sentCode.status, sentText.status]).toEqual([200, 200])
    const ids = [sentCode.body.msg_id, sentText.body.msg_id] as string[]
    const code = (await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${mobile}`, undefined, as(a)))
      .body.code
    const snapshot = async () => ({
      messages: (await call(app, 'GET', '/_sandbox/sms/messages', undefined, as(a))).body,
      account: (await call(app, 'GET', '/v1/accounts/app', undefined, as(a))).body,
      latest: (await call(app, 'GET', `/_sandbox/sms/codes/latest?mobile=${mobile}`, undefined, as(a))).body,
    })
    const before = await snapshot()

    const routes = listRoutes(app).filter(r => /^\/(v1|v3|_sandbox)\//.test(r.url))
    let calls = 0
    for (const route of routes) {
      for (const method of route.methods.filter(m => m !== 'HEAD')) {
        for (const id of ids) {
          const url = `${route.url.replace(/:[^/]+/g, id)}?msg_id=${id}&mobile=${mobile}&registration_id=${id}`
          const body = { msg_id: id, mobile, code, temp_id: 1, schedule_id: id, registration_id: [id] }
          const res = await call(app, method as 'GET', url, method === 'GET' ? undefined : body, as(b))
          calls++
          expect(res.status, `${method} ${url}`).toBeLessThan(500)
          // A's content must never show; A's ids only as B's own input echoed: in a refusal, or in
          // the request journal's entries of B's own requests (their path, query and bodies).
          expect(res.raw, `${method} ${url} leaks A's text`).not.toContain('SECRET42')
          if (res.status < 400)
            for (const id of ids)
              expect(withoutOwnEcho(res.raw), `${method} ${url} leaks ${id}`).not.toContain(id)
        }
      }
    }
    expect(calls).toBeGreaterThan(20)
    expect(await snapshot()).toEqual(before)
    // A's code is still A's to use, once.
    const valid = await call(app, 'POST', `/v1/codes/${ids[0]}/valid`, { code }, as(a))
    expect(valid.body).toEqual({ is_valid: true })
  })

  it("another app's msg_id is simply unknown (50026)", async () => {
    const { app } = await createTestApp()
    const a = newTenant('alice')
    const sent = await call(
      app,
      'POST',
      '/v1/codes',
      { mobile: '13912345679', temp_id: 1 },
      { authorization: a.auth },
    )
    const res = await call(app, 'POST', `/v1/codes/${sent.body.msg_id}/valid`, { code: '123456' })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ is_valid: false, error: { code: 50026, message: 'wrong msg_id' } })
  })
})

describe('request bodies are bounded', () => {
  const big = JSON.stringify({ mobile: '13800138000', temp_id: 1, pad: 'x'.repeat(2 * 1024 * 1024) })

  it.each(['/v1/messages', '/v1/codes'])(
    "2 MiB to POST %s: 403 50007 in the JSMS envelope (the seed's status, not 413)",
    async url => {
      const { app } = await createTestApp()
      const res = await call(app, 'POST', url, big)
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe(50007)
      expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
    },
  )

  // (A POST to /_sandbox/sms/messages, which takes none, is a wrong method first: 405.)
  it('2 MiB to POST /_sandbox/faults: 413 90012, the control plane’s own', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/_sandbox/faults', big)
    expect({ status: res.status, body: res.body }).toEqual({
      status: 413,
      body: { error: { code: 90012, message: 'the body is over the 1 MiB limit' } },
    })
  })

  it('2 MiB to POST /v3/push: refused with a JPush code', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/v3/push', big)
    // jpush-api.md §5.12: 1005 "body too large" is HTTP 400.
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(1005)
  })
})

describe('outside every route', () => {
  it('a 2 MiB body to an unknown path: 403 50007 in the vendor envelope, not Fastify’s 413', async () => {
    const { app } = await createTestApp()
    const res = await call(app, 'POST', '/nowhere', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }))
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: { code: 50007, message: 'invalid body' } })
  })
})

/** An answer without what the request journal echoes of the caller's own requests. */
function withoutOwnEcho(raw: string): string {
  if (!raw.includes('request_body')) return raw
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip)
    if (v === null || typeof v !== 'object') return v
    const o = v as Record<string, unknown>
    const echo = 'request_body' in o && 'answer_body' in o
    return Object.fromEntries(
      Object.entries(o)
        .filter(([k]) => !(echo && ['path', 'query', 'request_body', 'answer_body', 'ids'].includes(k)))
        .map(([k, x]) => [k, strip(x)]),
    )
  }
  return JSON.stringify(strip(JSON.parse(raw)))
}
