import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import { migrationsBefore } from '../fixtures/migrations.js'
import { basic, newKey } from '../helpers.js'

// Migration 014 on a database written before it: the apps there are listed by the operator, in
// the order they were made, and their journals start with their next request; their seqs go on.

const T0 = Date.parse('2026-01-01T00:00:00.000Z')

describe('migration 014 on a database with apps', () => {
  it('gives every app its activity, oldest first, and journals from the next request on', async () => {
    const { before, path } = migrationsBefore('014')
    const [older, newer] = [newKey('o'), newKey('n')]
    const old = openDatabase(path, before)
    old.exec(`INSERT INTO developers (dev_key, dev_secret) VALUES ('mdev', 'x')`)
    const insert = old.prepare(
      `INSERT INTO apps (app_key, master_secret, dev_key, created_at) VALUES (?, 'secret000000000000000001', 'mdev', ?)`,
    )
    insert.run(newer, T0 - 1000)
    insert.run(older, T0 - 5000)
    old.exec(
      `INSERT INTO events (app_key, seq, type, at, data) VALUES ('${older}', 7, 'clock.moved', ${T0 - 4000}, '{}')`,
    )
    closeDatabase(old)

    const app = await buildApp(testConfig({ database: path }), { clock: new ManualClock(T0) })
    try {
      const operator = { authorization: basic('operator', 'operator') }
      const listed = await app.inject({ method: 'GET', url: '/_sandbox/apps', headers: operator })
      const keys = listed.json().apps.map((a: { app_key: string }) => a.app_key)
      expect(keys.indexOf(newer)).toBeLessThan(keys.indexOf(older))
      expect(keys).toContain(older)

      const auth = { authorization: basic(older, 'secret000000000000000001') }
      await app.inject({
        method: 'POST',
        url: '/_sandbox/clock',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{"advance_ms":1}',
      })
      const journal = await app.inject({ method: 'GET', url: '/_sandbox/requests', headers: auth })
      // After its event of seq 7, its clock.moved (8), then the request's entry (9).
      expect(journal.json().requests.map((r: { seq: number; path: string }) => [r.seq, r.path])).toEqual([
        [9, '/_sandbox/clock'],
      ])
      const again = await app.inject({ method: 'GET', url: '/_sandbox/apps?limit=1', headers: operator })
      expect(again.json().apps[0]).toMatchObject({ app_key: older, counts: { requests: 1, refusals: 0 } })
    } finally {
      await app.close()
    }
  })
})
