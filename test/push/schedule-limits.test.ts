import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { basic, call, createTestApp, defaultAuth } from '../helpers.js'
import { create, MINUTE, single } from './schedule-helpers.js'

// The Schedule API's limits (jpush-api.md §3, §8): 100 tasks not over per app, 100 calls a minute
// in a window of its own, both per app in the seed file; and its server error, 8200 500.

describe('the sandbox failing', () => {
  it('a full disk while creating a task: 500 8200, and the task is not half there', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/v3/schedules')
    const pages = Number(app.store.db.pragma('page_count', { simple: true }))
    app.store.db.pragma(`max_page_count = ${pages + 2}`)
    let failed: Awaited<ReturnType<typeof call>> | undefined
    let created = 0
    for (let i = 0; i < 90 && !failed; i++) {
      const res = await call(app, 'POST', '/v3/schedules', single('2026-01-02 09:00:00', { name: `t${i}` }))
      if (res.status === 200) created++
      else failed = res
    }
    expect(failed, 'the disk never filled up').toBeDefined()
    expect([failed!.status, failed!.body]).toEqual([
      500,
      { error: { code: 8200, message: 'Server internal error.' } },
    ])
    const count = app.store.db.prepare('SELECT count(*) AS n FROM push_schedules').get() as { n: number }
    expect(count.n).toBe(created)
  })
})

describe('limits', () => {
  it('100 tasks not over per app: the 101st is 8100; one over or deleted makes room', async () => {
    const { app, clock } = await createTestApp()
    const ids: string[] = []
    for (let i = 0; i < 100; i++) {
      if (i === 90) clock.advance(MINUTE) // past the 100 calls a minute
      ids.push(
        await create(app, single(i === 0 ? '2026-01-01 08:30:00' : '2026-01-05 09:00:00', { name: `t${i}` })),
      )
    }
    clock.advance(MINUTE)
    const over = await call(app, 'POST', '/v3/schedules', single('2026-01-05 09:00:00'))
    expect([over.status, over.body.error.code]).toEqual([400, 8100])
    expect(over.body.error.message).toMatch(/already has 100 tasks that are not over/)
    expect((await call(app, 'DELETE', `/v3/schedules/${ids[1]}`)).status).toBe(200)
    expect((await call(app, 'POST', '/v3/schedules', single('2026-01-05 09:00:00'))).status).toBe(200)
    expect((await call(app, 'POST', '/v3/schedules', single('2026-01-05 09:00:00'))).status).toBe(400)
    clock.advance(30 * MINUTE) // the first task's time has come: it is over
    expect((await call(app, 'POST', '/v3/schedules', single('2026-01-05 09:00:00'))).status).toBe(200)
  })

  it('100 calls a minute on the schedule API, its own window and headers (X-Rate-Limit-*: 100)', async () => {
    const { app, clock } = await createTestApp()
    for (let i = 1; i <= 100; i++) {
      const res = await app.inject({
        method: 'GET',
        url: '/v3/schedules',
        headers: { authorization: defaultAuth },
      })
      expect(res.statusCode).toBe(200)
      if (i === 1) expect(res.headers['x-rate-limit-limit']).toBe('100')
      if (i === 100) expect(res.headers['x-rate-limit-remaining']).toBe('0')
    }
    const over = await call(app, 'POST', '/v3/push/schedules', single('2026-01-02 09:00:00'))
    expect(over.status).toBe(429)
    expect(over.body).toEqual({ error: { code: 2002, message: 'Rate limit exceeded' } })
    // The push API's window is another one.
    const cid = await call(app, 'GET', '/v3/push/cid')
    expect([cid.status, cid.headers['x-rate-limit-limit']]).toEqual([200, '600'])
    clock.advance(MINUTE)
    expect((await call(app, 'GET', '/v3/schedules')).status).toBe(200)
  })

  it('per app in the seed file: settings.schedules_limit and rate_limits.schedule', async () => {
    const seed = join(mkdtempSync(join(tmpdir(), 'seed-')), 'seed.json')
    const [key, secret] = ['schedlimit00000000000001', 'schedlimitsecret00000001']
    const apps = [
      { app_key: key, master_secret: secret, settings: { schedules_limit: 2, rate_limits: { schedule: 4 } } },
    ]
    writeFileSync(seed, JSON.stringify({ apps }))
    const { app } = await createTestApp({ seedFile: seed })
    const auth = { authorization: basic(key, secret) }
    for (let i = 0; i < 2; i++) await create(app, single('2026-01-02 09:00:00'), auth)
    const third = await call(app, 'POST', '/v3/schedules', single('2026-01-02 09:00:00'), auth)
    expect([third.status, third.body.error.code]).toEqual([400, 8100])
    expect(third.body.error.message).toMatch(/already has 2 tasks/)
    expect(third.headers['x-rate-limit-limit']).toBe('4')
    expect((await call(app, 'GET', '/v3/schedules', undefined, auth)).status).toBe(200)
    expect((await call(app, 'GET', '/v3/schedules', undefined, auth)).status).toBe(429)
  })
})
