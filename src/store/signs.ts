import type { Db } from './db.js'
import { createAppMemo } from './row-cache.js'
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
  const pendingOther = db.prepare<[string, number], Row>(
    'SELECT * FROM signs WHERE app_key = ? AND status = 0 AND sign_id <> ? LIMIT 1',
  )
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
  const nextReview = db.prepare<[string], { t: number | null }>(
    'SELECT MIN(review_at) AS t FROM signs WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL',
  )
  // Every send reads its signature (or the default) and asks whether a review is due: answered
  // from memory until a write below changes the app's signatures.
  const memo = createAppMemo(db)
  const loadSign = (appKey: string, signId: number): Sign | null => {
    const row = get.get(appKey, signId)
    return row ? toSign(row) : null
  }
  const loadDefault = (appKey: string): Sign | null => {
    const row = getDefault.get(appKey)
    return row ? toSign(row) : null
  }
  const loadNextReview = (appKey: string): number | null => nextReview.get(appKey)?.t ?? null

  return {
    /** Frozen and shared: copy to change. */
    get(appKey: string, signId: number): Sign | undefined {
      return memo.read(appKey, signId, loadSign) ?? undefined
    },
    getDefault(appKey: string): Sign | undefined {
      return memo.read(appKey, 'default', loadDefault) ?? undefined
    },
    /** A signature of the app under review, other than `except` (none: -1). */
    pendingOther(appKey: string, except: number): Sign | undefined {
      const row = pendingOther.get(appKey, except)
      return row && toSign(row)
    },
    insert(s: Omit<Sign, 'createdAt' | 'updatedAt'>, now: number): void {
      memo.forget(s.appKey)
      insert.run({ ...s, isDefault: s.isDefault ? 1 : 0, now })
    },
    update(appKey: string, signId: number, input: SignInput, reviewAt: number, now: number): void {
      memo.forget(appKey)
      update.run({ appKey, signId, ...input, reviewAt, now })
    },
    remove(appKey: string, signId: number): boolean {
      memo.forget(appKey)
      return remove.run(appKey, signId).changes === 1
    },
    /** Whether any message of the app went out under this signature. */
    usedByMessages(appKey: string, signId: number): boolean {
      return usedBy.get(appKey, signId)?.used === 1
    },
    decide(appKey: string, signId: number, status: 1 | 2, reason: string | null, now: number): boolean {
      memo.forget(appKey)
      const changed = decide.run({ appKey, signId, status, reason, now }).changes === 1
      promote.run({ appKey })
      return changed
    },
    /** As templates.settleReviews: writes only when a review is due. */
    settleReviews(appKey: string, now: number): Sign[] {
      const due = memo.read(appKey, 'review', loadNextReview)
      if (due === null || due > now) return []
      memo.forget(appKey)
      const settled = settle.all({ appKey, now }).map(toSign)
      if (settled.length > 0) promote.run({ appKey })
      return settled
    },
  }
}
