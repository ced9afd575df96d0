import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { toApiError } from '../../src/http/error-handler.js'
import { smsDialect } from '../../src/sms/dialect.js'
import { basic, defaultAuth } from '../helpers.js'
import { createLoggedApp } from '../log-capture.js'

// Only a client's known mistakes are 4xx. A failure of the sandbox itself — here the database
// refusing a write while a new tenant is auto-provisioned — is each surface's server error, 500,
// logged with its cause, whatever status the layer it crossed had labelled it with.

/** A full disk, as SQLite sees it: the file may not grow beyond the pages it has now (plus two). */
function fillDisk(app: SandboxApp): void {
  const pages = Number(app.store.db.pragma('page_count', { simple: true }))
  app.store.db.pragma(`max_page_count = ${pages + 2}`)
}

const tenant = (i: number) => basic(`fulldisk${String(i).padStart(16, '0')}`, 'fulldisksecret0000000001')

describe('a database failure during authentication', () => {
  it('is 500 in every surface’s envelope and logged with its cause, never a 4xx', async () => {
    const { app, lines } = await createLoggedApp()
    fillDisk(app)
    // New tenants until the disk is full: each costs a few KB, two pages hold only a few.
    let i = 0
    let first: { statusCode: number; body: string } | undefined
    for (; i < 50 && !first; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/v1/accounts/app',
        headers: { authorization: tenant(i) },
      })
      if (res.statusCode !== 200) first = res
    }
    expect(first, 'the disk never filled up').toBeDefined()
    expect(first!.statusCode).toBe(500)
    expect(JSON.parse(first!.body)).toEqual({ error: { code: 50019, message: 'server error' } })

    // Even from an address past its limit of failed logins on /v3: a server error is no refusal.
    const wrong = basic('7d431e42dfa6a6d693ac2d04', 'wrongsecret0000000000000')
    for (let n = 0; n < 600; n++)
      await app.inject({ method: 'GET', url: '/v3/push/cid', headers: { authorization: wrong } })
    const full = tenant(i)
    for (const [url, code] of [
      ['/v1/accounts/app', 50019],
      ['/_sandbox/clock', 90099],
      ['/v3/push/cid', 1000],
      ['/v3/tags', 7000],
      ['/v3/received', 10],
    ] as const) {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: full } })
      expect({ url, status: res.statusCode, code: res.json().error.code }).toEqual({ url, status: 500, code })
    }
    const failures = lines().filter(l => l.msg === 'request failed')
    expect(failures.length).toBeGreaterThanOrEqual(6)
    for (const l of failures) {
      expect(l.level).toBe(50)
      expect(l.err).toMatchObject({ code: 'SQLITE_FULL', message: 'database or disk is full' })
    }
    // Apps that exist are not touched by it.
    const known = await app.inject({
      method: 'GET',
      url: '/v1/accounts/app',
      headers: { authorization: defaultAuth },
    })
    expect(known.statusCode).toBe(200)
  })
})

describe('toApiError', () => {
  it('takes only known client errors for 4xx: an unknown error with a 4xx statusCode is a server error', () => {
    const labelled = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR', statusCode: 401 })
    expect(toApiError(labelled, smsDialect).toBody()).toEqual({
      error: { code: 50019, message: 'server error' },
    })
    expect(toApiError(Object.assign(new Error('x'), { statusCode: 400 }), smsDialect).status).toBe(500)
    const lying = Object.assign(new Error('length'), {
      code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
      statusCode: 400,
    })
    expect(toApiError(lying, smsDialect).toBody()).toEqual({
      error: { code: 50007, message: 'invalid body' },
    })
  })
})
