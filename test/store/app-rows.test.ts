import { describe, expect, it, vi } from 'vitest'
import { appTables } from '../../src/store/apps/app-rows.js'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import type { Store } from '../../src/store/index.js'
import { basic, call, newKey } from '../helpers.js'
import { createLoggedApp } from '../log-capture.js'
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
