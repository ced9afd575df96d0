import type { Engine } from '../../store/engine/index.js'
import { createLister, type ListWindow } from '../../store/engine/lister.js'
import { msgIdKey, msgIdText, newMsgIdKey } from '../msg-ids.js'

export interface Code {
  msgId: string
  appKey: string
  mobile: string
  code: string
  expiresAt: number
  verifiedAt: number | null
}

interface Row {
  msg_id: number
  app_key: string
  mobile: string
  code: string
  expires_at: number
  verified_at: number | null
}

/** A code as the control plane shows it: with its message's seq, kind and time. */
export type ListedCode = Code & { seq: number; kind: string; createdAt: number }

export type CodeFilter = ListWindow & { mobile?: string; msgId?: string; kind?: string }

const toCode = (r: Row): Code => ({
  msgId: msgIdText(r.msg_id),
  appKey: r.app_key,
  mobile: r.mobile,
  code: r.code,
  expiresAt: r.expires_at,
  verifiedAt: r.verified_at,
})

export function createCodeStore({ db }: Engine) {
  const insert = db.prepare(
    `INSERT INTO codes (msg_id, app_key, mobile, code, expires_at, verified_at)
     VALUES (@msgId, @appKey, @mobile, @code, @expiresAt, NULL)`,
  )
  const get = db.prepare<[string, number], Row>('SELECT * FROM codes WHERE app_key = ? AND msg_id = ?')
  const latest = createLister<
    'mobile' | 'msgId' | 'kind',
    Row & { seq: number; kind: string; created_at: number }
  >(
    db,
    {
      columns: 'c.*, m.seq, m.kind, m.created_at',
      from: 'codes c',
      join: 'JOIN messages m ON m.msg_id = c.msg_id',
      appKey: 'c.app_key',
      seq: 'm.seq',
      time: 'm.created_at',
      filters: { mobile: 'c.mobile = @mobile', msgId: 'c.msg_id = @msgId', kind: 'm.kind = @kind' },
    },
    { newest: true },
  )
  const verify = db.prepare('UPDATE codes SET verified_at = ? WHERE msg_id = ? AND verified_at IS NULL')

  return {
    insert(c: Omit<Code, 'verifiedAt'>): void {
      insert.run({ ...c, msgId: newMsgIdKey(c.msgId) })
    },
    get(appKey: string, msgId: string): Code | undefined {
      const row = get.get(appKey, msgIdKey(msgId))
      return row && toCode(row)
    },
    /** The newest code that passes the filter. */
    latest(appKey: string, filter: Omit<CodeFilter, 'limit'>): ListedCode | undefined {
      const msgId = filter.msgId === undefined ? undefined : msgIdKey(filter.msgId)
      const [row] = latest(appKey, { ...filter, msgId, limit: 1 })
      return row && { ...toCode(row), seq: row.seq, kind: row.kind, createdAt: row.created_at }
    },
    /** True only for the one call that marks it verified. */
    markVerified(msgId: string, now: number): boolean {
      return verify.run(now, msgIdKey(msgId)).changes === 1
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Verification codes and voice codes, and their checks (store.codes). */
    codes: ReturnType<typeof createCodeStore>
  }
}
