import type { Engine } from '../../store/engine/index.js'
import { type DueQuery, dueQuery } from '../../store/engine/index.js'

/** 0 under review, 1 approved, 2 rejected (jsms-api.md §3). */
export type ReviewStatus = 0 | 1 | 2

/** What is reviewed: templates and signatures, each in its table with its id column. */
export interface ReviewTable {
  table: 'templates' | 'signs'
  id: 'temp_id' | 'sign_id'
  /** Its name in review_events and in the callback's type (SMS_TEMPLATE, SMS_SIGN). */
  kind: 'template' | 'sign'
}

export interface ReviewEvent {
  appKey: string
  kind: 'template' | 'sign'
  refId: number
  status: 1 | 2
  refuseReason: string | null
  at: number
}

interface EventRow {
  id: number
  app_key: string
  kind: string
  ref_id: number
  status: number
  refuse_reason: string | null
  at: number
}

interface Decision {
  appKey: string
  id: number
  status: 1 | 2
  reason: string | null
  now: number
}

const IN_REVIEW = 'x.status = 0 AND x.review_at IS NOT NULL'

/** Rows under review, due for approval at review_at (partial indexes of migration 002). */
export const REVIEWS_DUE: Record<ReviewTable['table'], DueQuery> = {
  templates: dueQuery('x.review_at', 'templates x', IN_REVIEW),
  signs: dueQuery('x.review_at', 'signs x', IN_REVIEW),
}

/** Decisions recorded and not yet taken (`takeEvents`): due at once. */
export const REVIEW_RESULTS_DUE = dueQuery('x.at', 'review_events x', '1')

/**
 * The one review workflow of templates and signatures. A row is submitted under review (status 0
 * with its review_at, by its module's insert or update, which note REVIEWS_DUE), then decided:
 * approved by the clock once review_at has passed (`settleReviews`, run by the scheduler and by the
 * catch-up before a request's handler), or approved or rejected at once by the sandbox's reviewer
 * (`decide`). Each decision that changes a status is recorded in review_events, in the same write,
 * for the SMS_TEMPLATE/SMS_SIGN callbacks (migration 005 replaced the two tables' triggers with
 * this). `afterDecision` lets a table react (the first approved signature becomes the default).
 *
 * Every send reads its template and signature: the table's rows are cached per app (`memo`,
 * engine/caches.ts), which every statement of the table that writes forgets (declared with it:
 * engine/statements.ts).
 */
export function createReviewable<Row>(
  { db, caches, writes }: Engine,
  { table, id, kind }: ReviewTable,
  afterDecision: (appKey: string) => void = () => {},
) {
  const memo = caches.perApp()
  const DUE = 'status = 0 AND review_at IS NOT NULL AND review_at <= @now'
  // Recorded before the decision, while the status it changes can still be compared.
  // Each decision recorded is due at once (REVIEW_RESULTS_DUE: the callbacks it makes).
  const recorded = { query: REVIEW_RESULTS_DUE, at: ({ now }: { now: number }) => now }
  const recordDecision = writes<Decision>(
    `INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
     SELECT app_key, '${kind}', ${id}, @status, @reason, @now FROM ${table}
     WHERE app_key = @appKey AND ${id} = @id AND status <> @status`,
    { due: recorded },
  )
  const decide = writes<Decision>(
    `UPDATE ${table} SET status = @status, refuse_reason = @reason, review_at = NULL, updated_at = @now
     WHERE app_key = @appKey AND ${id} = @id`,
    { forgets: [memo] },
  )
  const recordSettled = writes<{ appKey: string; now: number }>(
    `INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
     SELECT app_key, '${kind}', ${id}, 1, refuse_reason, @now FROM ${table}
     WHERE app_key = @appKey AND ${DUE} ORDER BY ${id}`,
    { due: recorded },
  )
  const settle = writes<{ appKey: string; now: number }, Row>(
    `UPDATE ${table} SET status = 1, review_at = NULL, updated_at = @now WHERE app_key = @appKey AND ${DUE}
     RETURNING *`,
    { forgets: [memo] },
  )
  const nextReview = db.prepare<[string], { t: number | null }>(
    `SELECT MIN(review_at) AS t FROM ${table} WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL`,
  )
  const loadNextReview = (appKey: string): number | null => nextReview.get(appKey)?.t ?? null

  return {
    memo,
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

/**
 * Template and signature reviews seen from the scheduler: which apps have a review whose time has
 * come, and the results the review workflow recorded, each taken once.
 */
export function createReviewStore({ db }: Engine) {
  const dueApps = db.prepare<{ now: number }, { app_key: string }>(
    `SELECT t.app_key FROM templates t JOIN apps a ON a.app_key = t.app_key
       WHERE t.status = 0 AND t.review_at IS NOT NULL AND t.review_at <= @now + a.clock_offset_ms
     UNION
     SELECT s.app_key FROM signs s JOIN apps a ON a.app_key = s.app_key
       WHERE s.status = 0 AND s.review_at IS NOT NULL AND s.review_at <= @now + a.clock_offset_ms`,
  )
  const takeEvents = db.prepare<{ limit: number }, EventRow>(
    'DELETE FROM review_events WHERE id IN (SELECT id FROM review_events ORDER BY id LIMIT @limit) RETURNING *',
  )

  return {
    /** Apps with at least one review due on their own clock. */
    dueApps(now: number): string[] {
      return dueApps.all({ now }).map(r => r.app_key)
    },
    takeEvents(limit: number): ReviewEvent[] {
      return takeEvents
        .all({ limit })
        .sort((a, b) => a.id - b.id)
        .map(r => ({
          appKey: r.app_key,
          kind: r.kind as ReviewEvent['kind'],
          refId: r.ref_id,
          status: r.status as 1 | 2,
          refuseReason: r.refuse_reason,
          at: r.at,
        }))
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** The reviews seen from the scheduler: apps with one due, the decisions to call back (store.reviews). */
    reviews: ReturnType<typeof createReviewStore>
  }
}
