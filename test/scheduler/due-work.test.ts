import { describe, expect, it } from 'vitest'
import type { SandboxApp } from '../../src/app.js'
import { queriesOf } from '../../src/scheduler/due-work.js'
import { openDatabase } from '../../src/store/engine/db.js'
import { createDueIndex } from '../../src/store/engine/due.js'
import type { DueQuery } from '../../src/store/engine/index.js'
import { APP_KEY, call, createTestApp } from '../helpers.js'
import { listRoutes } from '../reliability/routes.js'

// "Time has passed" in one place (the due-work list, src/scheduler/due-work.ts): reads never write,
// a request catches up its app's due work once before its handler, and the next due time is known
// in memory.

/** Counts the write jobs queued from now on. */
function countWrites(app: SandboxApp): () => number {
  let n = 0
  const write = app.store.write
  app.store.write = ((...args: Parameters<typeof write>) => {
    n++
    return write(...args)
  }) as typeof write
  return () => n
}

/** Counts what SQLite is asked about due times from now on: over every app, and for one app. */
function countDueQueries(app: SandboxApp) {
  const { asked } = app.store.due
  const start = { ...asked }
  return () => ({ everyApp: asked.everyApp - start.everyApp, oneApp: asked.oneApp - start.oneApp })
}

const turn = () => new Promise(resolve => setImmediate(resolve))

/** A template put back under review (rejected, then modified): due for approval after 60 s. */
async function templateUnderReview(app: SandboxApp, headers: Record<string, string> = {}) {
  await call(app, 'POST', '/_sandbox/sms/templates/2/review', { status: 2, refuse_reason: 'x' }, headers)
  const put = await call(
    app,
    'PUT',
    '/v1/templates/2',
    { template: '新{{order}}，{{days}}', type: 2 },
    headers,
  )
  expect(put.status).toBe(200)
}

describe('reads never write', () => {
  it('no GET of any surface queues a write job of its own (pulls excepted: they hand records out once)', async () => {
    const { app } = await createTestApp()
    await app.ready()
    await app.scheduler.stop() // no tick in between, and nothing due to catch up
    const writes = countWrites(app)
    // GET /v1/report and /v1/reply hand each record out once (jsms-api.md §2.8): that mark is the read.
    const pulls = new Set(['/v1/report', '/v1/reply'])
    const gets = listRoutes(app).filter(r => r.methods.includes('GET') && !pulls.has(r.url))
    expect(gets.length).toBeGreaterThan(20)
    for (const { url } of gets) {
      const before = writes()
      const res = await call(app, 'GET', url.replace(/:[a-z_]+/g, '1'))
      expect(res.status, url).not.toBe(500)
      expect(writes() - before, `GET ${url}`).toBe(0)
    }
  })

  it('a request catches up what fell due for its app before its handler, whatever the route reads', async () => {
    const { app, clock } = await createTestApp({ reviewDelayMs: 60_000 })
    await templateUnderReview(app)
    clock.advance(60_000)
    // Whoever gets there first (this request, or a tick of the scheduler), it is approved once.
    let approved = 0
    const settle = app.store.templates.settleReviews
    app.store.templates.settleReviews = (appKey, now) => {
      const done = settle(appKey, now)
      approved += done.length
      return done
    }
    // A route that never looks at templates: the app's review is approved all the same.
    expect((await call(app, 'GET', '/v1/accounts/app')).status).toBe(200)
    expect(app.store.templates.get(APP_KEY, 2)!.status).toBe(1)
    expect((await call(app, 'GET', '/v1/templates/2')).body.status).toBe(1)
    expect((await call(app, 'GET', '/v3/received?msg_ids=1')).status).toBe(200)
    expect(approved).toBe(1)
  })
})

describe('the next due time, known in memory', () => {
  it('re-arming after answers asks SQLite nothing; a clock move asks again', async () => {
    const { app } = await createTestApp()
    await call(app, 'GET', '/v1/accounts/app')
    await turn()
    const asked = countDueQueries(app)
    for (let i = 0; i < 20; i++) {
      await call(app, 'GET', '/v1/accounts/app')
      await call(app, 'POST', '/v1/messages', {
        mobile: `1380013${8100 + i}`,
        temp_id: 2,
        temp_para: { order: 'A', days: '1' },
      })
      await turn() // the re-arm after each answer runs
    }
    expect(asked()).toEqual({ everyApp: 0, oneApp: 0 })
    await call(app, 'POST', '/_sandbox/clock', { advance_ms: 1000 })
    await turn()
    expect(asked().everyApp).toBeGreaterThan(0)
  })

  it('a write that brings due work forward is known at once, without asking SQLite', async () => {
    const { app, clock } = await createTestApp({ reviewDelayMs: 60_000 })
    await call(app, 'GET', '/v1/accounts/app')
    await turn()
    const queries = queriesOf(app.scheduler.work)
    expect(app.store.due.earliest(queries)).toBeUndefined()
    const asked = countDueQueries(app)
    const now = clock.now()
    const created = await call(app, 'POST', '/v1/templates', { template: '订单{{order}}已发货', type: 2 })
    expect(created.status).toBe(200)
    expect(app.store.due.earliest(queries)).toBe(now + 60_000)
    expect(app.store.due.earliestOf(APP_KEY)).toBe(now + 60_000)
    expect(asked()).toEqual({ everyApp: 0, oneApp: 0 })
  })
})

describe('the due index', () => {
  // Due queries over a table of their own: `set` changes what SQLite answers for one of them.
  const setup = (offsets: Record<string, number> = {}) => {
    const db = openDatabase(':memory:')
    db.exec('CREATE TABLE due_test (q TEXT, app_key TEXT, t INTEGER)')
    const due = createDueIndex(db, key => offsets[key] ?? 0)
    const query = (q: string): DueQuery => ({
      every: `SELECT MIN(t) AS t FROM due_test WHERE q = '${q}'`,
      one: `SELECT MIN(t) AS t FROM due_test WHERE q = '${q}' AND app_key = @appKey`,
    })
    const set = (q: string, t?: number, appKey = 'a') => {
      db.prepare('DELETE FROM due_test WHERE q = ?').run(q)
      if (t !== undefined) db.prepare('INSERT INTO due_test VALUES (?, ?, ?)').run(q, appKey, t)
    }
    return { db, due, query, set }
  }

  it('keeps lower bounds: told of sooner work, never of work done; asks again after work ran', () => {
    const { db, due, query, set } = setup({ b: 1000 })
    const [schedules, reports] = [query('schedules'), query('reports')]
    const both = [schedules, reports]
    set('schedules', 500)
    set('reports', 500)
    expect(due.earliest(both)).toBe(500)
    due.note(schedules, 'a', 300)
    expect(due.earliest(both)).toBe(300)
    due.note(schedules, 'a', 900) // later than known: no change
    due.note(reports, 'b', 1200) // app time 1200 on a clock 1000 ahead: process time 200
    expect(due.earliest(both)).toBe(200)
    set('schedules', 700)
    set('reports', 700)
    expect(due.earliest(both)).toBe(200) // known: SQLite is not asked
    due.ran()
    expect(due.earliest(both)).toBe(700)
    set('schedules')
    set('reports')
    due.remap()
    expect(due.earliest(both)).toBeUndefined()
    db.close()
  })

  it('asks again, after one entry ran, for its queries alone', () => {
    const { db, due, query, set } = setup()
    const [reviews, reports, callbacks] = [query('reviews'), query('reports'), query('callbacks')]
    set('reports', 100)
    set('callbacks', 400)
    const before = due.asked.everyApp
    expect(due.earliest([reviews, reports, callbacks])).toBe(100)
    expect(due.asked.everyApp - before).toBe(3)
    set('reports', 250)
    due.ran([reports])
    expect(due.earliest([reviews, reports, callbacks])).toBe(250)
    expect(due.asked.everyApp - before).toBe(4)
    set('callbacks', 50) // not asked again: the bound known stays
    expect(due.earliest([callbacks])).toBe(400)
    db.close()
  })

  it('keeps per app only the queries requests catch up, and nothing read inside a transaction', () => {
    const { db, due, query, set } = setup()
    const [reviews, push, reports] = [query('reviews'), query('push'), query('reports')]
    due.watch({ perApp: [reviews, push], sooner: () => {} })
    set('reviews', 1000)
    expect(due.earliestOf('a')).toBe(1000)
    set('reviews', 5000) // kept: not asked again
    due.note(reports, 'a', 10) // the scheduler's alone
    expect(due.earliestOf('a')).toBe(1000)
    due.note(push, 'a', 20)
    expect(due.earliestOf('a')).toBe(20)
    due.ranFor('a')
    set('reviews', 5)
    db.transaction(() => expect(due.earliestOf('a')).toBe(5))()
    set('reviews', 6)
    expect(due.earliestOf('a')).toBe(6)
    db.close()
  })
})

describe('the due-work list', () => {
  it('is walked in its order, step by step (DUE_STEPS); its queries are the due index per app for the catch-up entries', async () => {
    const { app } = await createTestApp()
    const names = app.scheduler.work.map(w => w.name)
    // decide, fire (the features' order: SMS before push), fan out, arrive, announce, call back,
    // follow up, expire: the order of the list written out in app.ts before it was by step.
    expect(names).toEqual([
      'reviews',
      'schedules',
      'push schedules',
      'fan-out',
      'reports',
      'review results',
      'callbacks',
      'push',
      'idle apps',
    ])
    expect(new Set(names).size).toBe(names.length)
    // Every query is one entry's: the index's bounds per query are per kind.
    const queries = queriesOf(app.scheduler.work)
    expect(new Set(queries).size).toBe(queries.length)
    expect(app.scheduler.work.filter(w => w.catchUp).map(w => w.name)).toEqual(['reviews', 'push'])
  })
})
