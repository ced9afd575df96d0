import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { closeDatabase, listMigrations, MIGRATIONS_DIR, openDatabase } from '../../src/store/engine/db.js'

// Migration 010 records each device's online sessions (the "online" users of GET /v3/users):
// triggers for every registration and change, and a backfill for devices registered before it.

type Session = { registration_id: string; online_at: number; offline_at: number | null }
const sessions = (db: ReturnType<typeof openDatabase>) =>
  db
    .prepare(
      'SELECT registration_id, online_at, offline_at FROM push_device_sessions ORDER BY registration_id, online_at',
    )
    .all() as Session[]

describe('device sessions (migration 010)', () => {
  it('backfills the devices of a database written before it, then follows every change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sessions-'))
    const before = join(dir, 'migrations')
    mkdirSync(before)
    for (const { file, version } of listMigrations(MIGRATIONS_DIR))
      if (version < 10) copyFileSync(join(MIGRATIONS_DIR, file), join(before, file))
    const path = join(dir, 'sandbox.db')
    const old = openDatabase(path, before)
    old.exec(`INSERT INTO developers (dev_key, dev_secret) VALUES ('dev', 'secret');
      INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES ('app', 'secret', 'dev', 0);
      INSERT INTO push_devices (app_key, registration_id, platform, online, last_online_at, created_at) VALUES
        ('app', 'on', 'android', 1, 500, 100),
        ('app', 'seen', 'ios', 0, 700, 100),
        ('app', 'never', 'android', 0, 100, 100);`)
    closeDatabase(old)

    const db = openDatabase(path)
    expect(sessions(db)).toEqual([
      { registration_id: 'on', online_at: 100, offline_at: null },
      { registration_id: 'seen', online_at: 100, offline_at: 700 },
    ])
    db.exec(`UPDATE push_devices SET online = 0, last_online_at = 900 WHERE registration_id = 'on';
      UPDATE push_devices SET online = 1, last_online_at = 950 WHERE registration_id = 'never';
      UPDATE push_devices SET online = 1, last_online_at = 990 WHERE registration_id = 'never';
      INSERT INTO push_devices (app_key, registration_id, platform, online, last_online_at, created_at) VALUES
        ('app', 'new', 'hmos', 1, 1000, 1000), ('app', 'off', 'hmos', 0, 1000, 1000);`)
    expect(sessions(db)).toEqual([
      { registration_id: 'never', online_at: 950, offline_at: null },
      { registration_id: 'new', online_at: 1000, offline_at: null },
      { registration_id: 'on', online_at: 100, offline_at: 900 },
      { registration_id: 'seen', online_at: 100, offline_at: 700 },
    ])
    // A device removed (an app reset) takes its sessions with it.
    db.exec(`DELETE FROM push_devices WHERE app_key = 'app'`)
    expect(sessions(db)).toEqual([])
    closeDatabase(db)
  })
})
