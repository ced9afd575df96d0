import type { Db } from './db.js'
import type { ReviewStatus } from './templates.js'

export interface Sign {
  appKey: string
  signId: number
  sign: string
  type: number | null
  remark: string
  images: number
  status: ReviewStatus
  isDefault: boolean
  refuseReason: string | null
  reviewAt: number | null
  createdAt: number
  updatedAt: number
}

interface Row {
  app_key: string
  sign_id: number
  sign: string
  type: number | null
  remark: string
  images: number
  status: number
  is_default: number
  refuse_reason: string | null
  review_at: number | null
  created_at: number
  updated_at: number
}

const toSign = (r: Row): Sign => ({
  appKey: r.app_key,
  signId: r.sign_id,
  sign: r.sign,
  type: r.type,
  remark: r.remark,
  images: r.images,
  status: r.status as ReviewStatus,
  isDefault: r.is_default === 1,
  refuseReason: r.refuse_reason,
  reviewAt: r.review_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

export type SignInput = Pick<Sign, 'sign' | 'type' | 'remark' | 'images'>

export function createSignStore(db: Db) {
  const get = db.prepare<[string, number], Row>('SELECT * FROM signs WHERE app_key = ? AND sign_id = ?')
  const getDefault = db.prepare<[string], Row>(
    'SELECT * FROM signs WHERE app_key = ? AND is_default = 1 ORDER BY sign_id LIMIT 1',
  )
  const pending = db.prepare<[string], Row>('SELECT * FROM signs WHERE app_key = ? AND status = 0 LIMIT 1')
  const insert = db.prepare(
    `INSERT INTO signs (app_key, sign_id, sign, type, remark, images, status, is_default, refuse_reason,
       review_at, created_at, updated_at)
     VALUES (@appKey, @signId, @sign, @type, @remark, @images, @status, @isDefault, @refuseReason, @reviewAt,
       @now, @now)`,
  )
  const update = db.prepare(
    `UPDATE signs SET sign = @sign, type = @type, remark = @remark, images = @images, status = 0,
       refuse_reason = NULL, review_at = @reviewAt, updated_at = @now
     WHERE app_key = @appKey AND sign_id = @signId`,
  )
  const remove = db.prepare('DELETE FROM signs WHERE app_key = ? AND sign_id = ?')
  const usedBy = db.prepare<[string, number], { used: number }>(
    'SELECT EXISTS (SELECT 1 FROM messages WHERE app_key = ? AND sign_id = ?) AS used',
  )
  const decide = db.prepare<{
    appKey: string
    signId: number
    status: number
    reason: string | null
    now: number
  }>(
    `UPDATE signs SET status = @status, refuse_reason = @reason, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND sign_id = @signId`,
  )
  const settle = db.prepare<{ appKey: string; now: number }, Row>(
    `UPDATE signs SET status = 1, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND status = 0 AND review_at IS NOT NULL AND review_at <= @now RETURNING *`,
  )
  // The first approved signature of an app becomes its default, as in the console.
  const promote = db.prepare(
    `UPDATE signs SET is_default = 1 WHERE app_key = @appKey AND sign_id = (
       SELECT sign_id FROM signs WHERE app_key = @appKey AND status = 1 ORDER BY sign_id LIMIT 1)
     AND NOT EXISTS (SELECT 1 FROM signs WHERE app_key = @appKey AND is_default = 1)`,
  )

  return {
    get(appKey: string, signId: number): Sign | undefined {
      const row = get.get(appKey, signId)
      return row && toSign(row)
    },
    getDefault(appKey: string): Sign | undefined {
      const row = getDefault.get(appKey)
      return row && toSign(row)
    },
    pending(appKey: string): Sign | undefined {
      const row = pending.get(appKey)
      return row && toSign(row)
    },
    insert(s: Omit<Sign, 'createdAt' | 'updatedAt'>, now: number): void {
      insert.run({ ...s, isDefault: s.isDefault ? 1 : 0, now })
    },
    update(appKey: string, signId: number, input: SignInput, reviewAt: number, now: number): void {
      update.run({ appKey, signId, ...input, reviewAt, now })
    },
    remove(appKey: string, signId: number): boolean {
      return remove.run(appKey, signId).changes === 1
    },
    /** Whether any message of the app went out under this signature. */
    usedByMessages(appKey: string, signId: number): boolean {
      return usedBy.get(appKey, signId)?.used === 1
    },
    decide(appKey: string, signId: number, status: 1 | 2, reason: string | null, now: number): boolean {
      const changed = decide.run({ appKey, signId, status, reason, now }).changes === 1
      promote.run({ appKey })
      return changed
    },
    settleReviews(appKey: string, now: number): Sign[] {
      const settled = settle.all({ appKey, now }).map(toSign)
      if (settled.length > 0) promote.run({ appKey })
      return settled
    },
  }
}

export type SignStore = ReturnType<typeof createSignStore>
