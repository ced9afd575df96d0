import type { Db } from './db.js'

export interface Code {
  msgId: string
  appKey: string
  mobile: string
  code: string
  expiresAt: number
  verifiedAt: number | null
}

interface Row {
  msg_id: string
  app_key: string
  mobile: string
  code: string
  expires_at: number
  verified_at: number | null
}

const toCode = (r: Row): Code => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  mobile: r.mobile,
  code: r.code,
  expiresAt: r.expires_at,
  verifiedAt: r.verified_at,
})

export function createCodeStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO codes (msg_id, app_key, mobile, code, expires_at, verified_at)
     VALUES (@msgId, @appKey, @mobile, @code, @expiresAt, NULL)`,
  )
  const get = db.prepare<[string, string], Row>('SELECT * FROM codes WHERE app_key = ? AND msg_id = ?')
  const latest = db.prepare<[string, string], Row>(
    `SELECT c.* FROM codes c JOIN messages m ON m.msg_id = c.msg_id
     WHERE c.app_key = ? AND c.mobile = ? ORDER BY m.created_at DESC, c.msg_id DESC LIMIT 1`,
  )
  const verify = db.prepare('UPDATE codes SET verified_at = ? WHERE msg_id = ? AND verified_at IS NULL')

  return {
    insert(c: Omit<Code, 'verifiedAt'>): void {
      insert.run(c)
    },
    get(appKey: string, msgId: string): Code | undefined {
      const row = get.get(appKey, msgId)
      return row && toCode(row)
    },
    latest(appKey: string, mobile: string): Code | undefined {
      const row = latest.get(appKey, mobile)
      return row && toCode(row)
    },
    /** True only for the one call that marks it verified. */
    markVerified(msgId: string, now: number): boolean {
      return verify.run(now, msgId).changes === 1
    },
  }
}
