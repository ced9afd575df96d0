import type { Db } from './db.js'
import { createAppMemo } from './row-cache.js'

export type TemplateType = 1 | 2 | 3
/** 0 under review, 1 approved, 2 rejected (jsms-api.md §3). */
export type ReviewStatus = 0 | 1 | 2

export interface Template {
  appKey: string
  tempId: number
  template: string
  type: TemplateType
  ttl: number
  remark: string
  status: ReviewStatus
  refuseReason: string | null
  reviewAt: number | null
  createdAt: number
  updatedAt: number
}

interface Row {
  app_key: string
  temp_id: number
  template: string
  type: number
  ttl: number
  remark: string
  status: number
  refuse_reason: string | null
  review_at: number | null
  created_at: number
  updated_at: number
}

const toTemplate = (r: Row): Template => ({
  appKey: r.app_key,
  tempId: r.temp_id,
  template: r.template,
  type: r.type as TemplateType,
  ttl: r.ttl,
  remark: r.remark,
  status: r.status as ReviewStatus,
  refuseReason: r.refuse_reason,
  reviewAt: r.review_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

export type TemplateInput = Pick<Template, 'template' | 'type' | 'ttl' | 'remark'>

export function createTemplateStore(db: Db) {
  const get = db.prepare<[string, number], Row>('SELECT * FROM templates WHERE app_key = ? AND temp_id = ?')
  const insert = db.prepare(
    `INSERT INTO templates (app_key, temp_id, template, type, ttl, remark, status, refuse_reason, review_at,
       created_at, updated_at)
     VALUES (@appKey, @tempId, @template, @type, @ttl, @remark, @status, @refuseReason, @reviewAt, @now, @now)`,
  )
  const update = db.prepare(
    `UPDATE templates SET template = @template, type = @type, ttl = @ttl, remark = @remark, status = 0,
       refuse_reason = NULL, review_at = @reviewAt, updated_at = @now
     WHERE app_key = @appKey AND temp_id = @tempId`,
  )
  const remove = db.prepare('DELETE FROM templates WHERE app_key = ? AND temp_id = ?')
  const decide = db.prepare<{
    appKey: string
    tempId: number
    status: number
    reason: string | null
    now: number
  }>(
    `UPDATE templates SET status = @status, refuse_reason = @reason, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND temp_id = @tempId`,
  )
  const settle = db.prepare<{ appKey: string; now: number }, Row>(
    `UPDATE templates SET status = 1, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND status = 0 AND review_at IS NOT NULL AND review_at <= @now RETURNING *`,
  )
  const nextReview = db.prepare<[string], { t: number | null }>(
    'SELECT MIN(review_at) AS t FROM templates WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL',
  )
  // Every send reads its template and asks whether a review is due: answered from memory until a
  // write below changes the app's templates.
  const memo = createAppMemo(db)
  const loadTemplate = (appKey: string, tempId: number): Template | null => {
    const row = get.get(appKey, tempId)
    return row ? toTemplate(row) : null
  }
  const loadNextReview = (appKey: string): number | null => nextReview.get(appKey)?.t ?? null

  return {
    /** Frozen and shared: copy to change. */
    get(appKey: string, tempId: number): Template | undefined {
      return memo.read(appKey, tempId, loadTemplate) ?? undefined
    },
    insert(t: Omit<Template, 'createdAt' | 'updatedAt'>, now: number): void {
      memo.forget(t.appKey)
      insert.run({ ...t, now })
    },
    /** A modification sends the template back to review. */
    update(appKey: string, tempId: number, input: TemplateInput, reviewAt: number, now: number): void {
      memo.forget(appKey)
      update.run({ appKey, tempId, ...input, reviewAt, now })
    },
    remove(appKey: string, tempId: number): boolean {
      memo.forget(appKey)
      return remove.run(appKey, tempId).changes === 1
    },
    decide(appKey: string, tempId: number, status: 1 | 2, reason: string | null, now: number): boolean {
      memo.forget(appKey)
      return decide.run({ appKey, tempId, status, reason, now }).changes === 1
    },
    /**
     * Approves every review of the app whose time has come; returns what it approved. Writes only
     * when one is due (the earliest pending review is remembered), so a send does not pay an
     * UPDATE to learn that nothing changed.
     */
    settleReviews(appKey: string, now: number): Template[] {
      const due = memo.read(appKey, 'review', loadNextReview)
      if (due === null || due > now) return []
      memo.forget(appKey)
      return settle.all({ appKey, now }).map(toTemplate)
    },
  }
}
