import { describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import { createStore } from '../../src/store/index.js'
import { migrationsBefore } from '../fixtures/migrations.js'

// Migration 011 on a database written before it: what existed gets seqs per app, in the order it
// happened across kinds, and the counter goes on from there. (msg_ids as the sequence makes them:
// migration 012 makes them the rowid.)

describe('migration 011 on an existing database', () => {
  it('numbers what each app already had, in time order, and new items follow', () => {
    const { before, path } = migrationsBefore('011')

    const old = openDatabase(path, before)
    old.exec(`
      INSERT INTO developers (dev_key, dev_secret) VALUES ('dev', 'secret');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('a', 's', 'dev', 0), ('b', 's', 'dev', 0);
      INSERT INTO messages (msg_id, app_key, mobile, kind, content, units, created_at)
        VALUES ('600000000001', 'a', '13800138000', 'template', 'x', 1, 10), ('600000000002', 'a', '13800138000', 'template', 'x', 1, 30),
               ('600000000003', 'b', '13800138000', 'template', 'x', 1, 5);
      INSERT INTO replies (app_key, mobile, content, reply_at) VALUES ('a', '13800138000', 'hi', 20);
      INSERT INTO callbacks (app_key, type, data, state, created_at) VALUES ('a', 'SMS_REPLY', '{}', 'delivered', 25);
      INSERT INTO pushes (msg_id, app_key, sendno, payload, broadcast, day_key, time_to_live, created_at)
        VALUES ('p1', 'a', '0', '{}', 0, '2026-01-01', 60, 40);
      INSERT INTO push_deliveries (msg_id, app_key, registration_id, platform, status, expires_at, delivered_at)
        VALUES ('p1', 'a', 'r1', 'android', 'delivered', 100, 40), ('p1', 'a', 'r2', 'android', 'pending', 100, NULL);
    `)
    closeDatabase(old)

    const db = openDatabase(path)
    const seqsOf = (sql: string) =>
      db
        .prepare(sql)
        .all()
        .map(r => Object.values(r as object).join(':'))
    expect(seqsOf('SELECT msg_id, seq FROM messages ORDER BY app_key, seq')).toEqual([
      '600000000001:1',
      '600000000002:4',
      '600000000003:1',
    ])
    expect(seqsOf('SELECT seq FROM replies')).toEqual(['2'])
    expect(seqsOf('SELECT seq FROM callbacks')).toEqual(['3'])
    expect(seqsOf('SELECT registration_id, seq FROM push_deliveries ORDER BY registration_id')).toEqual([
      'r1:5',
      'r2:',
    ])
    const store = createStore(db)
    expect(store.seqs.current('a')).toBe(5)
    expect(store.transaction(() => store.seqs.next('a', 'sms'))).toBe(6)
    expect(store.seqs.current('b')).toBe(1)
    store.close()
    closeDatabase(db)
  })
})
