import { describe, expect, it } from 'vitest'
import { basic, defaultAuth, newKey } from './helpers.js'
import { createLoggedApp, type LogLine } from './log-capture.js'

// A refused vendor call's one log line says its code and why the sandbox refused it (the reason
// never reaches the vendor's body), and an injected fault reads as an `info` line naming the fault.

const completed = (lines: LogLine[]) => lines.filter(l => l.msg === 'request completed')

describe('the log line of a refused call', () => {
  it("carries the vendor code and the reason, while the body stays the vendor's", async () => {
    const { app, lines } = await createLoggedApp()
    const res = await app.inject({
      method: 'POST',
      url: '/v1/messages',
      headers: { authorization: defaultAuth, 'content-type': 'application/json' },
      payload: JSON.stringify({ mobile: '13800138000', temp_id: 999999 }),
    })
    expect(res.json()).toEqual({ error: { code: 50013, message: 'invalid temp_id' } })
    expect(completed(lines()).at(-1)).toMatchObject({
      level: 30,
      res: { statusCode: 403 },
      code: 50013,
      reason: 'the app has no template 999999',
    })
  })

  it('names which part of the credentials is wrong', async () => {
    const { app, lines } = await createLoggedApp()
    const key = newKey()
    await app.inject({ method: 'GET', url: '/v1/accounts/app', headers: { authorization: basic(key, key) } })
    const res = await app.inject({
      method: 'GET',
      url: '/v1/accounts/app',
      headers: { authorization: basic(key, 'x'.repeat(24)) },
    })
    expect(res.json()).toEqual({ error: { code: 50002, message: 'auth failed' } })
    await app.inject({ method: 'POST', url: '/v3/push', headers: { authorization: basic('short', 's') } })
    const [, mismatch, malformed] = completed(lines())
    expect(mismatch).toMatchObject({
      code: 50002,
      reason: `the secret does not match app ${key}'s masterSecret`,
    })
    expect(malformed).toMatchObject({ code: 1008, reason: 'the appKey "short" is not 24 letters or digits' })
  })

  it('of an injected 500 is an info line naming the fault, with no error and no stack', async () => {
    const { app, lines } = await createLoggedApp()
    const armed = await app.inject({
      method: 'POST',
      url: '/_sandbox/faults',
      headers: { authorization: defaultAuth, 'content-type': 'application/json' },
      payload: JSON.stringify({ path: '/v1/codes', code: 50019 }),
    })
    const { id } = armed.json()
    const res = await app.inject({
      method: 'POST',
      url: '/v1/codes',
      headers: { authorization: defaultAuth, 'content-type': 'application/json' },
      payload: JSON.stringify({ mobile: '13800138000', temp_id: 1 }),
    })
    expect(res.statusCode).toBe(500)
    expect(res.json()).toEqual({ error: { code: 50019, message: 'server error' } })
    expect(lines().filter(l => l.level >= 50)).toEqual([])
    expect(completed(lines()).at(-1)).toMatchObject({
      level: 30,
      res: { statusCode: 500 },
      code: 50019,
      reason: `fault #${id} (any method /v1/codes) armed for this request`,
    })
  })
})
