import type { Db } from '../engine/db.js'

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

/**
 * Template and signature reviews seen from the scheduler: which apps have a review whose time has
 * come, and the results the review workflow recorded (reviewable.ts), each taken once.
 */
export function createReviewStore(db: Db) {
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
