import type { Engine } from '../../store/engine/index.js'
import { createReviewable, REVIEWS_DUE, type ReviewStatus } from '../reviews/index.js'

export type { ReviewStatus }
export type TemplateType = 1 | 2 | 3

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

export function createTemplateStore(engine: Engine) {
  const { db, writes } = engine
  // Every send reads its template: answered from memory (sms/reviews/table.ts) until a statement
  // below changes the app's templates and forgets them (declared with it: engine/statements.ts).
  const review = createReviewable<Row>(engine, { table: 'templates', id: 'temp_id', kind: 'template' })
  const { memo } = review
  const get = db.prepare<[string, number], Row>('SELECT * FROM templates WHERE app_key = ? AND temp_id = ?')
  // For the desk's list (GET /_sandbox/sms/templates): each row then read by `get`, from its cache.
  const ids = db.prepare<[string], { id: number }>(
    'SELECT temp_id AS id FROM templates WHERE app_key = ? ORDER BY temp_id',
  )
  const insert = writes<Omit<Template, 'createdAt' | 'updatedAt'> & { now: number }>(
    `INSERT INTO templates (app_key, temp_id, template, type, ttl, remark, status, refuse_reason, review_at,
       created_at, updated_at)
     VALUES (@appKey, @tempId, @template, @type, @ttl, @remark, @status, @refuseReason, @reviewAt, @now, @now)`,
    { forgets: [memo], due: { query: REVIEWS_DUE.templates, at: t => t.reviewAt } },
  )
  const update = writes<TemplateInput & { appKey: string; tempId: number; reviewAt: number; now: number }>(
    `UPDATE templates SET template = @template, type = @type, ttl = @ttl, remark = @remark, status = 0,
       refuse_reason = NULL, review_at = @reviewAt, updated_at = @now
     WHERE app_key = @appKey AND temp_id = @tempId`,
    { forgets: [memo], due: { query: REVIEWS_DUE.templates, at: t => t.reviewAt } },
  )
  const remove = writes<[appKey: string, tempId: number]>(
    'DELETE FROM templates WHERE app_key = ? AND temp_id = ?',
    { key: ([appKey]) => appKey, forgets: [memo] },
  )
  const loadTemplate = (appKey: string, tempId: number): Template | null => {
    const row = get.get(appKey, tempId)
    return row ? toTemplate(row) : null
  }

  return {
    /** Frozen and shared: copy to change. */
    get(appKey: string, tempId: number): Template | undefined {
      return memo.read(appKey, tempId, loadTemplate) ?? undefined
    },
    insert(t: Omit<Template, 'createdAt' | 'updatedAt'>, now: number): void {
      insert.run({ ...t, now })
    },
    /** A modification sends the template back to review. */
    update(appKey: string, tempId: number, input: TemplateInput, reviewAt: number, now: number): void {
      update.run({ appKey, tempId, ...input, reviewAt, now })
    },
    remove(appKey: string, tempId: number): boolean {
      return remove.run([appKey, tempId]).changes === 1
    },
    /** The app's temp_ids, in order. */
    ids(appKey: string): number[] {
      return ids.all(appKey).map(r => r.id)
    },
    decide: review.decide,
    /** Approves every review of the app whose time has come; returns what it approved. */
    settleReviews(appKey: string, now: number): Template[] {
      return review.settleReviews(appKey, now).map(toTemplate)
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** SMS templates, reviewed (store.templates). */
    templates: ReturnType<typeof createTemplateStore>
  }
}
