import type { Db } from '../engine/db.js'
import type { DueIndex } from '../engine/due-index.js'
import { cachedStatements, createAppMemo } from '../engine/row-cache.js'

/** 0 under review, 1 approved, 2 rejected (jsms-api.md §3). */
export type ReviewStatus = 0 | 1 | 2

/** What is reviewed: templates and signatures, each in its table with its id column. */
export interface ReviewTable {
  table: 'templates' | 'signs'
  id: 'temp_id' | 'sign_id'
  /** Its name in review_events and in the callback's type (SMS_TEMPLATE, SMS_SIGN). */
  kind: 'template' | 'sign'
}

interface Decision {
  appKey: string
  id: number
  status: 1 | 2
  reason: string | null
  now: number
}

/**
 * The one review workflow of templates and signatures. A row is submitted under review (status 0
 * with its review_at, by its module's insert or update), then decided: approved by the clock once
 * review_at has passed (`settleReviews`, run by the scheduler and by the catch-up before a
 * request's handler), or approved or rejected at once by the sandbox's reviewer (`decide`). Each
 * decision that changes a status is recorded in review_events, in the same write, for the
 * SMS_TEMPLATE/SMS_SIGN callbacks (migration 005 replaced the two tables' triggers with this).
 * `afterDecision` lets a table react (the first approved signature becomes the default).
 *
 * Every send reads its template and signature: the table's rows are cached per app (`memo`,
 * row-cache.ts), and the table's module prepares all its statements through `sql`, so each one
 * that writes forgets the app's cached rows when it runs.
 */
export function createReviewable<Row>(
  db: Db,
  due: DueIndex,
  { table, id, kind }: ReviewTable,
  afterDecision: (appKey: string) => void = () => {},
) {
  const memo = createAppMemo(db)
  const sql = cachedStatements(db, memo)
  const DUE = 'status = 0 AND review_at IS NOT NULL AND review_at <= @now'
  const resultsDue = (p: { appKey: string; now: number }) => due.note('review results', p.appKey, p.now)
  // Recorded before the decision, while the status it changes can still be compared.
  const recordDecision = sql.write<Decision>(
    `INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
     SELECT app_key, '${kind}', ${id}, @status, @reason, @now FROM ${table}
     WHERE app_key = @appKey AND ${id} = @id AND status <> @status`,
    p => p.appKey,
    resultsDue,
  )
  const decide = sql.write<Decision>(
    `UPDATE ${table} SET status = @status, refuse_reason = @reason, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND ${id} = @id`,
    p => p.appKey,
  )
  const recordSettled = sql.write<{ appKey: string; now: number }>(
    `INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
     SELECT app_key, '${kind}', ${id}, 1, refuse_reason, @now FROM ${table}
     WHERE app_key = @appKey AND ${DUE} ORDER BY ${id}`,
    p => p.appKey,
    resultsDue,
  )
  const settle = sql.write<{ appKey: string; now: number }, Row>(
    `UPDATE ${table} SET status = 1, review_at = NULL, updated_at = @now WHERE app_key = @appKey AND ${DUE}
     RETURNING *`,
    p => p.appKey,
  )
  const nextReview = sql.read<[string], { t: number | null }>(
    `SELECT MIN(review_at) AS t FROM ${table} WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL`,
  )
  const loadNextReview = (appKey: string): number | null => nextReview.get(appKey)?.t ?? null

  return {
    memo,
    sql,
    /** The effect of the statements that submit a row (insert, update): due for review at review_at. */
    submitted(p: { appKey: string; reviewAt: number | null }): void {
      if (p.reviewAt !== null) due.note('reviews', p.appKey, p.reviewAt)
    },
    /** Approves or rejects at once, whatever the state; false when there is no such row. */
    decide(appKey: string, rowId: number, status: 1 | 2, reason: string | null, now: number): boolean {
      const decision = { appKey, id: rowId, status, reason, now }
      recordDecision.run(decision)
      const changed = decide.run(decision).changes === 1
      afterDecision(appKey)
      return changed
    },
    /**
     * Approves every review of the app whose time has come; returns the rows it approved. Writes
     * only when one is due (the earliest pending review is remembered per app).
     */
    settleReviews(appKey: string, now: number): Row[] {
      const next = memo.read(appKey, 'review', loadNextReview)
      if (next === null || next > now) return []
      recordSettled.run({ appKey, now })
      const settled = settle.all({ appKey, now })
      if (settled.length > 0) afterDecision(appKey)
      return settled
    },
  }
}
