import type { Db } from './db.js'

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
 * come, and the results recorded by the triggers of migration 002 (review_events), taken once.
 */
export function createReviewStore(db: Db) {
  const dueApps = db.prepare<{ now: number }, { app_key: string }>(
    `SELECT t.app_key FROM templates t JOIN apps a ON a.app_key = t.app_key
       WHERE t.status = 0 AND t.review_at IS NOT NULL AND t.review_at <= @now + a.clock_offset_ms
     UNION
     SELECT s.app_key FROM signs s JOIN apps a ON a.app_key = s.app_key
       WHERE s.status = 0 AND s.review_at IS NOT NULL AND s.review_at <= @now + a.clock_offset_ms`,
  )
  const nextDue = db.prepare<[], { t: number | null }>(
    `SELECT MIN(t) AS t FROM (
       SELECT MIN(x.review_at - a.clock_offset_ms) AS t FROM templates x JOIN apps a ON a.app_key = x.app_key
         WHERE x.status = 0 AND x.review_at IS NOT NULL
       UNION ALL
       SELECT MIN(x.review_at - a.clock_offset_ms) FROM signs x JOIN apps a ON a.app_key = x.app_key
         WHERE x.status = 0 AND x.review_at IS NOT NULL)`,
  )
  const nextDueOfApp = db.prepare<[string, string], { t: number | null }>(
    `SELECT MIN(t) AS t FROM (
       SELECT MIN(review_at) AS t FROM templates WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL
       UNION ALL
       SELECT MIN(review_at) FROM signs WHERE app_key = ? AND status = 0 AND review_at IS NOT NULL)`,
  )
  const hasEvents = db.prepare<[], { n: number }>('SELECT 1 AS n FROM review_events LIMIT 1')
  const takeEvents = db.prepare<{ limit: number }, EventRow>(
    'DELETE FROM review_events WHERE id IN (SELECT id FROM review_events ORDER BY id LIMIT @limit) RETURNING *',
  )

  return {
    /** Apps with at least one review due on their own clock. */
    dueApps(now: number): string[] {
      return dueApps.all({ now }).map(r => r.app_key)
    },
    nextDue(): number | undefined {
      return nextDue.get()?.t ?? undefined
    },
    nextDueOfApp(appKey: string): number | undefined {
      return nextDueOfApp.get(appKey, appKey)?.t ?? undefined
    },
    hasEvents(): boolean {
      return hasEvents.get() !== undefined
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
