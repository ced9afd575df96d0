import { APPS_WITH_ARRIVING } from '../sms/reports-arriving.js'
import type { Db } from './db.js'
import type { DueKind } from './due-index.js'

/**
 * When each kind of due work next falls due, from SQLite: without `appKey` the process time of
 * the earliest item of any app (each due time minus its app's clock offset), with it the app time
 * of the app's earliest item. Asked only when the due index (due-index.ts) does not know: after the
 * scheduler ran, after a clock move, for an app's first request.
 */
export type DueTime = (appKey?: string) => number | undefined

// Due times are on the owning app's clock (migration 002): process time = due time - offset.
const EVERY_APP = (t: string, from: string, where: string) =>
  `SELECT MIN(${t} - a.clock_offset_ms) AS t FROM ${from} JOIN apps a ON a.app_key = x.app_key WHERE ${where}`
const ONE_APP = (t: string, from: string, where: string) =>
  `SELECT MIN(${t}) AS t FROM ${from} WHERE x.app_key = @appKey AND ${where}`

const IN_REVIEW = 'x.status = 0 AND x.review_at IS NOT NULL'
// An undecided fallback of a push not yet delivered, or a pending delivery reaching its
// time_to_live. Each part reads its partial index (migration 004: the few undecided rows), never
// the app's index of every delivery it ever had.
const PUSH_DUE = `(SELECT sms_due_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_sms_due
       WHERE sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL AND delivered_at IS NULL
     UNION ALL SELECT expires_at AS t, app_key FROM push_deliveries INDEXED BY push_deliveries_pending_due
       WHERE status = 'pending') x`

/** Per kind: the query over every app and the query for one app. */
const QUERIES: Record<DueKind, Array<[every: string, one: string]>> = {
  reviews: ['templates', 'signs'].map(table => [
    EVERY_APP('x.review_at', `${table} x`, IN_REVIEW),
    ONE_APP('x.review_at', `${table} x`, IN_REVIEW),
  ]),
  schedules: [
    [
      EVERY_APP('x.send_at', 'schedules x', "x.status = 'pending'"),
      ONE_APP('x.send_at', 'schedules x', "x.status = 'pending'"),
    ],
  ],
  // Partial index (migration 008): only the tasks with an occurrence to fire.
  'push schedules': [
    [
      EVERY_APP('x.next_due_at', 'push_schedules x', 'x.next_due_at IS NOT NULL'),
      ONE_APP('x.next_due_at', 'push_schedules x', 'x.next_due_at IS NOT NULL'),
    ],
  ],
  // Every message sent in the last REPORT_DELAY_MS has a report still to arrive: under a send load
  // tens of thousands. The generic query read them all, each tick; this one seeks, through the
  // partial index, each app that has one (reports-arriving.ts), then that app's first.
  reports: [
    [
      `${APPS_WITH_ARRIVING} SELECT MIN((SELECT MIN(x.report_at) FROM reports x INDEXED BY reports_arriving
         WHERE x.app_key = k.app_key AND x.seq IS NULL) - a.clock_offset_ms) AS t
       FROM k JOIN apps a ON a.app_key = k.app_key`,
      ONE_APP('x.report_at', 'reports x', 'x.seq IS NULL'),
    ],
  ],
  // Recorded when a review is decided (reviewable.ts): due at once.
  'review results': [[EVERY_APP('x.at', 'review_events x', '1'), ONE_APP('x.at', 'review_events x', '1')]],
  callbacks: [
    [
      EVERY_APP('x.next_attempt_at', 'callbacks x', "x.state = 'pending'"),
      ONE_APP('x.next_attempt_at', 'callbacks x', "x.state = 'pending'"),
    ],
  ],
  push: [[EVERY_APP('x.t', PUSH_DUE, '1'), ONE_APP('x.t', PUSH_DUE, '1')]],
}

export function createDueTimes(db: Db): Record<DueKind, DueTime> {
  const times = {} as Record<DueKind, DueTime>
  for (const [kind, queries] of Object.entries(QUERIES) as Array<[DueKind, Array<[string, string]>]>) {
    const prepared = queries.map(([every, one]) => ({
      every: db.prepare<[], { t: number | null }>(every),
      one: db.prepare<{ appKey: string }, { t: number | null }>(one),
    }))
    times[kind] = appKey => {
      let min: number | undefined
      for (const q of prepared) {
        const t = (appKey === undefined ? q.every.get() : q.one.get({ appKey }))?.t ?? undefined
        if (t !== undefined && (min === undefined || t < min)) min = t
      }
      return min
    }
  }
  return times
}
