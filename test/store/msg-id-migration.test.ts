import { describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { ManualClock } from '../../src/clock.js'
import { testConfig } from '../../src/config.js'
import { closeDatabase, openDatabase } from '../../src/store/engine/db.js'
import { migrationsBefore } from '../fixtures/migrations.js'
import { basic, newKey } from '../helpers.js'

// Migration 012 on a database written at 011: messages, codes and reports are rebuilt with the
// msg_id as their rowid, the push indexes become partial. Every row is kept, and reads back
// through the API as before (strings on the wire, the same seqs); new ids go on above the old.

const T0 = Date.parse('2026-01-01T00:00:00.000Z')

describe('migration 012 on a database with rows', () => {
  it('keeps every message, code, report and push, readable through the API', async () => {
    const { before, path } = migrationsBefore('012')
    const appKey = newKey('m')
    const secret = newKey('s')
    const cid = `${appKey}-0a1b2c3d-0000-4000-8000-00000000000c`

    // As the build at 011 wrote them: a template SMS (report arrived, not pulled), a code (report
    // still to arrive), a push with a cid and a broadcast.
    const old = openDatabase(path, before)
    expect(old.pragma('user_version', { simple: true })).toBe(11)
    old.exec(`INSERT INTO developers (dev_key, dev_secret, balance) VALUES ('mdev', 'x', 100)`)
    old
      .prepare(
        `INSERT INTO apps (app_key, master_secret, dev_key, created_at, industry, market, voice, balance)
         VALUES (?, ?, 'mdev', ?, 100, 100, 100, 100)`,
      )
      .run(appKey, secret, T0)
    old.exec(`
      INSERT INTO messages (msg_id, app_key, mobile, kind, temp_id, temp_type, sign_id, temp_para, content, units, tag,
          schedule_id, created_at, seq)
        VALUES ('600000000007', '${appKey}', '13800138000', 'template', 1, 2, 1, '{"order":"A1"}', '【S】order A1', 1,
          'old', NULL, ${T0 - 5000}, 1),
          ('600000000008', '${appKey}', '13800138001', 'code', NULL, NULL, 1, NULL, '【S】code 123456', 1, NULL, NULL,
          ${T0 - 1000}, 3);
      INSERT INTO codes (msg_id, app_key, mobile, code, expires_at) VALUES ('600000000008', '${appKey}', '13800138001',
        '123456', ${T0 + 600_000});
      INSERT INTO reports (msg_id, app_key, mobile, status, report_at, notify, pulled_at, seq)
        VALUES ('600000000007', '${appKey}', '13800138000', 4001, ${T0 - 3000}, 0, NULL, 2),
          ('600000000008', '${appKey}', '13800138001', 4001, ${T0 + 1000}, 0, NULL, NULL);
      INSERT INTO pushes (msg_id, app_key, sendno, cid, payload, broadcast, day_key, time_to_live, created_at)
        VALUES ('18100000000000042', '${appKey}', '7', '${cid}', '{}', 0, '2026-01-01', 60, ${T0 - 2000}),
          ('18100000000000043', '${appKey}', '8', NULL, '{}', 1, '2026-01-01', 60, ${T0 - 1500});
      UPDATE sequences SET value = 600000000008 WHERE name = 'msg_id';
      UPDATE sequences SET value = 43 WHERE name = 'push_msg_id';
    `)
    closeDatabase(old)

    const clock = new ManualClock(T0)
    const app = await buildApp(testConfig({ database: path }), { clock })
    try {
      const auth = basic(appKey, secret)
      const get = async (url: string) => {
        const res = await app.inject({ method: 'GET', url, headers: { authorization: auth } })
        expect(res.statusCode, res.body).toBe(200)
        return res.json()
      }
      const post = async (url: string, body: unknown) => {
        const res = await app.inject({
          method: 'POST',
          url,
          headers: { authorization: auth, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        })
        return { status: res.statusCode, body: res.json() }
      }
      expect(app.store.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(12)

      const messages = await get('/_sandbox/sms/messages')
      expect(messages.messages.map((m: { msg_id: string; seq: number }) => [m.msg_id, m.seq])).toEqual([
        ['600000000008', 3],
        ['600000000007', 1],
      ])
      expect(messages.messages[0]).toMatchObject({ kind: 'code', code: '123456', mobile: '13800138001' })
      expect(messages.messages[1]).toMatchObject({
        content: '【S】order A1',
        tag: 'old',
        temp_para: { order: 'A1' },
      })
      // By msg_id, exactly: a string that only reads as the same number names nothing.
      expect((await get('/_sandbox/sms/messages?msg_id=600000000007')).messages).toHaveLength(1)
      expect((await get('/_sandbox/sms/messages?msg_id=0600000000007')).messages).toHaveLength(0)
      expect((await get('/_sandbox/sms/codes/latest?msg_id=600000000008')).code).toBe('123456')

      // The report that had arrived is listed and pulled; the other arrives when its time comes.
      const reports = await get('/_sandbox/sms/reports')
      expect(reports.reports.map((r: { msg_id: string; seq: number }) => [r.msg_id, r.seq])).toEqual([
        ['600000000007', 2],
      ])
      const pulled = await get('/v1/report')
      expect(pulled.map((r: { msgId?: string; msg_id?: string }) => r.msgId ?? r.msg_id)).toEqual([
        '600000000007',
      ])
      clock.advance(1000)
      await app.scheduler.tick()
      const arrived = await get('/_sandbox/sms/reports')
      expect(arrived.reports.map((r: { msg_id: string; seq: number }) => [r.msg_id, r.seq])).toEqual([
        ['600000000008', 4],
        ['600000000007', 2],
      ])

      // The code still verifies, once.
      expect(await post('/v1/codes/600000000008/valid', { code: '123456' })).toMatchObject({
        status: 200,
        body: { is_valid: true },
      })
      expect((await post('/v1/codes/0600000000008/valid', { code: '123456' })).status).not.toBe(200)

      // A push with the same cid answers the first push's msg_id (pushes_by_cid, now partial).
      const again = await post('/v3/push', {
        platform: 'all',
        audience: { registration_id: ['1a0018970a8b0fd6c0e'] },
        notification: { alert: 'hi' },
        cid,
      })
      expect(again).toMatchObject({ status: 200, body: { msg_id: '18100000000000042', sendno: '7' } })

      // New ids go on above the old ones (an app provisioned now, with the fixtures' templates).
      const res = await app.inject({
        method: 'POST',
        url: '/v1/messages',
        headers: { authorization: basic(newKey('n'), newKey('s')), 'content-type': 'application/json' },
        payload: JSON.stringify({ mobile: '13800138002', temp_id: 2, temp_para: { order: 'A2', days: '3' } }),
      })
      expect(res.statusCode, res.body).toBe(200)
      expect(Number(res.json().msg_id)).toBeGreaterThan(600000000008)
    } finally {
      await app.close()
    }
  })
})
