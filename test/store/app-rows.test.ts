import { describe, expect, it, vi } from 'vitest'
import { appTables, COUNT_PAGE, countTable } from '../../src/store/apps/app-rows.js'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import type { Store } from '../../src/store/index.js'
import { basic, call, createTestApp, newKey } from '../helpers.js'
import { createLoggedApp } from '../log-capture.js'
import { useEverything } from '../sandbox/use-everything.js'
import { startReceiver } from '../scheduler/receiver.js'
import { databaseFile, openStore } from './file-store.js'

// Reset and removal find an app's rows from the schema (src/store/apps/app-rows.ts), so a table a later
// migration adds is covered only if it carries `app_key`, or cascades from a table that does.
// These keep that promise checked for every table the migrations create.

/** Tables that belong to no app. */
const GLOBAL = ['developers', 'sequences', 'seq_floors']

describe('the tables an app owns', () => {
  it('are every table but the global ones, directly or by a cascading foreign key', () => {
    const db = openDatabase(':memory:')
    const owned = new Set(appTables(db))
    const tables = db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      )
      .all()
      .map(r => r.name)
    for (const table of tables) {
      if (owned.has(table) || GLOBAL.includes(table)) continue
      const keys = db
        .prepare<[string], { table: string; on_delete: string }>(
          'SELECT "table", on_delete FROM pragma_foreign_key_list(?)',
        )
        .all(table)
      const cascades = keys.some(k => owned.has(k.table) && k.on_delete === 'CASCADE')
      expect(
        cascades,
        `${table}: give it an app_key column, or a foreign key ON DELETE CASCADE to one that has`,
      ).toBe(true)
    }
    db.close()
  })

  it('are emptied children first, apps last', () => {
    const db = openDatabase(':memory:')
    const order = appTables(db)
    expect(order.at(-1)).toBe('apps')
    expect(order.indexOf('codes')).toBeLessThan(order.indexOf('messages'))
    expect(order.indexOf('push_deliveries')).toBeLessThan(order.indexOf('pushes'))
    expect(order.indexOf('push_device_tags')).toBeLessThan(order.indexOf('push_devices'))
    db.close()
  })
})

describe("an app's rows counted a page at a time (GET /_sandbox/app/storage)", () => {
  // Each step of a count walks a bounded range of an index led by app_key (countTable): never the
  // app's whole range, never another app's rows, never a sort. The plans say so for every table.
  it('walk every table through an index led by app_key, each query a SEARCH without a sort', () => {
    const db = openDatabase(':memory:')
    const byRowids: string[] = []
    for (const table of appTables(db)) {
      const counter = countTable(db, table)
      expect('once' in counter.by, `${table}: give it an index (or a primary key) led by app_key`).toBe(false)
      if ('rowids' in counter.by) byRowids.push(table)
      for (const sql of counter.queries) {
        const names = [...new Set(sql.match(/@\w+/g) ?? [])].map(n => n.slice(1))
        const params = Object.fromEntries(names.map(n => [n, n === 'app' ? 'a' : 1]))
        const plan = db
          .prepare<Record<string, unknown>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
          .all(params)
          .map(r => r.detail)
        const ours = plan.filter(d => !d.startsWith('CO-ROUTINE') && !d.startsWith('SCAN (subquery'))
        for (const d of ours) expect(d, `${table}: ${sql}`).toMatch(/^SEARCH /)
        expect(plan.join('; '), `${table}: ${sql}`).not.toMatch(/TEMP B-TREE/)
        if ('keys' in counter.by) expect(ours.join('; '), `${table}: ${sql}`).toMatch(/app_key=\?/)
      }
    }
    // Review events have no index led by app_key: walked by rowids, a page of every app's at a time.
    expect(byRowids).toEqual(['review_events'])
    db.close()
  })

  it('count what SELECT count(*) says, over ties and NULLs in the indexes, whatever the page', async () => {
    const { app } = await createTestApp()
    const { store } = app
    const tenants = [newKey('c'), newKey('d')]
    for (const [t, appKey] of tenants.entries()) {
      await useEverything(app, { authorization: basic(appKey, newKey('s')) })
      await store.write(() => {
        for (let i = 0; i < 40; i++) {
          store.pushDevices.insert(
            {
              appKey,
              registrationId: `1c${i.toString(16).padStart(17, '0')}`,
              platform: 'android',
              alias: i % 3 === 0 ? null : 'same',
              mobile: null,
              online: false,
              lastOnlineAt: 0,
              createdAt: 7, // all at once
            },
            i % 2 === 0 ? ['x', 'y'] : [],
          )
          // Pushes without a seq (NULL in pushes_by_app) beside those with one; messages to one mobile
          // at one instant; reports not yet pulled (pulled_at NULL) beside pulled ones.
          store.db
            .prepare(
              `INSERT INTO pushes (msg_id, app_key, sendno, payload, broadcast, day_key, time_to_live, created_at, seq)
               VALUES (?, ?, 0, '{}', 0, '20260101', 60, 7, ?)`,
            )
            .run(
              `7${String(i).padStart(11, '0')}${appKey.slice(0, 3)}`,
              appKey,
              i % 2 === 0 ? null : 10_000 + i,
            )
          store.db
            .prepare(
              `INSERT INTO reports (msg_id, app_key, mobile, status, report_at, notify, pulled_at)
               VALUES (?, ?, '13800138000', 4001, 7, 0, ?)`,
            )
            .run(800_000_000_000 + t * 1000 + i, appKey, i % 3 === 0 ? 9 : null)
        }
      })
    }
    for (const appKey of tenants) {
      await store.requests.settled()
      const expected = Object.fromEntries(
        store.appRows.tables.map(t => [
          t,
          store.db
            .prepare<[string], number>(`SELECT count(*) FROM "${t}" WHERE app_key = ?`)
            .pluck()
            .get(appKey) ?? 0,
        ]),
      )
      for (const page of [1, 2, 3, 7, COUNT_PAGE]) {
        const steps = store.appRows.counting(appKey, page)
        let step = steps.next()
        let n = 1
        while (!step.done) {
          step = steps.next()
          n++
        }
        expect(step.value, `page ${page}`).toEqual(expected)
        // A step walks about a page: the app's rows take at least rows / (2 × page) steps.
        const rows = Object.values(expected).reduce((a, b) => a + b, 0)
        expect(n, `page ${page}`).toBeGreaterThanOrEqual(Math.floor(rows / (2 * page)))
      }
      expect(store.appRows.count(appKey)).toEqual(expected)
    }
  })
})

describe('a callback on the wire when its app is reset', () => {
  it('is recorded nowhere when its answer comes back, even when a new callback took its id', async () => {
    const [before, after] = [await startReceiver(), await startReceiver()]
    before.answer('hold')
    after.answer('hold')
    const { app, lines } = await createLoggedApp()
    const auth = { authorization: basic(newKey('w'), newKey('s')) }
    const reply = (content: string) =>
      call(app, 'POST', '/_sandbox/sms/replies', { mobile: '13800138000', content }, auth)
    await call(app, 'PATCH', '/_sandbox/app', { callback_url: before.url }, auth)
    await reply('first')
    // Real time: the scheduler posts it to a real socket, which holds it.
    await vi.waitFor(() => expect(before.received).toHaveLength(1), { timeout: 10_000 })
    expect((await call(app, 'POST', '/_sandbox/reset', undefined, auth)).status).toBe(200)
    await call(app, 'PATCH', '/_sandbox/app', { callback_url: after.url }, auth)
    await reply('second') // the table is empty again: this callback takes the first one's id
    await vi.waitFor(() => expect(after.received).toHaveLength(1), { timeout: 10_000 })
    // The first answer comes back while the second callback is on the wire.
    before.release()
    await vi.waitFor(
      () => expect(lines().map(l => l.msg)).toContain('callback attempt not recorded: its app was reset'),
      { timeout: 10_000 },
    )
    after.release()
    await app.scheduler.settled()
    const { callbacks } = (await call(app, 'GET', '/_sandbox/callbacks', undefined, auth)).body
    expect(callbacks).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ content: 'second' }),
        state: 'delivered',
        attempts: [expect.objectContaining({ attempt: 1, url: after.url, status_code: 200 })],
      }),
    ])
  })
})

describe("an app's seqs when its rows go", () => {
  // The counter behind every seq is read from the app's rows at its first use in a process
  // (item-seqs.ts). A reset, a removal or an import deletes those rows: the deletes carry the counter
  // over first, so the app's seqs go on from where they were even when nothing read them before.
  function storeWithReplies(): { store: Store; close: () => void } {
    const path = databaseFile('seqs')
    const first = openDatabase(path)
    first.exec(`
      INSERT INTO developers (dev_key, dev_secret) VALUES ('dev', 'secret');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'dev', 0);
      INSERT INTO replies (app_key, mobile, content, reply_at, seq) VALUES ('a', '13800138000', 'hi', 20, 7);
    `)
    closeDatabase(first)
    // A new process: nothing in memory of the app's seqs.
    return openStore(path)
  }

  it('go on after every row was removed at once (a reset, a removal)', () => {
    const { store, close } = storeWithReplies()
    store.transaction(() => store.appRows.remove('a'))
    expect(store.transaction(() => store.seqs.next('a', 'sms'))).toBe(8)
    close()
  })

  it('go on after the rows were removed a chunk at a time (an import)', () => {
    const { store, close } = storeWithReplies()
    const { removal } = store.appDocument
    for (let from = 0, more = true; more; ) {
      const step = store.transaction(() => removal.step('a', 100, from))
      from = step.table
      more = step.more
    }
    expect(store.db.prepare("SELECT count(*) AS n FROM replies WHERE app_key = 'a'").get()).toEqual({ n: 0 })
    expect(store.transaction(() => store.seqs.next('a', 'sms'))).toBe(8)
    close()
  })
})
