import type { Db } from './db.js'

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

  return {
    get(appKey: string, tempId: number): Template | undefined {
      const row = get.get(appKey, tempId)
      return row && toTemplate(row)
    },
    insert(t: Omit<Template, 'createdAt' | 'updatedAt'>, now: number): void {
      insert.run({ ...t, now })
    },
    /** A modification sends the template back to review. */
    update(appKey: string, tempId: number, input: TemplateInput, reviewAt: number, now: number): void {
      update.run({ appKey, tempId, ...input, reviewAt, now })
    },
    remove(appKey: string, tempId: number): boolean {
      return remove.run(appKey, tempId).changes === 1
    },
    decide(appKey: string, tempId: number, status: 1 | 2, reason: string | null, now: number): boolean {
      return decide.run({ appKey, tempId, status, reason, now }).changes === 1
    },
    /** Approves every review of the app whose time has come; returns what it approved. */
    settleReviews(appKey: string, now: number): Template[] {
      return settle.all({ appKey, now }).map(toTemplate)
    },
  }
}

export type TemplateStore = ReturnType<typeof createTemplateStore>
