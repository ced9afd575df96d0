import type { Db } from './db.js'
import type { DueIndex } from './due-index.js'
import { prepareWrite } from './statements.js'

export interface Report {
  msgId: string
  appKey: string
  mobile: string
  status: number
  reportAt: number
}

interface Row {
  msg_id: string
  app_key: string
  mobile: string
  status: number
  report_at: number
}

const toReport = (r: Row): Report => ({
  msgId: r.msg_id,
  appKey: r.app_key,
  mobile: r.mobile,
  status: r.status,
  reportAt: r.report_at,
})

const byTime = (a: Report, b: Report) => a.reportAt - b.reportAt || a.msgId.localeCompare(b.msgId)

/** Delivery reports: pulled once each (GET /v1/report) or called back (SMS_REPORT). */
export function createReportStore(db: Db, due: DueIndex) {
  // A report to call back (SMS_REPORT) is due work from its report_at.
  const insert = prepareWrite<Report & { notify: number }>(
    db,
    `INSERT INTO reports (msg_id, app_key, mobile, status, report_at, notify)
     VALUES (@msgId, @appKey, @mobile, @status, @reportAt, @notify) ON CONFLICT DO NOTHING`,
    r => {
      if (r.notify === 1) due.note('reports', r.appKey, r.reportAt)
    },
  )
  // Select and mark in one statement: a record can be handed out only once.
  const pull = db.prepare<{ appKey: string; now: number; since: number; limit: number }, Row>(
    `UPDATE reports SET pulled_at = @now WHERE msg_id IN (
       SELECT msg_id FROM reports WHERE app_key = @appKey AND pulled_at IS NULL
         AND report_at <= @now AND report_at > @since
       ORDER BY report_at, msg_id LIMIT @limit)
     RETURNING *`,
  )
  const takeDue = db.prepare<{ now: number; limit: number }, Row>(
    `UPDATE reports SET notify = 0 WHERE msg_id IN (
       SELECT r.msg_id FROM reports r JOIN apps a ON a.app_key = r.app_key
       WHERE r.notify = 1 AND r.report_at <= @now + a.clock_offset_ms
       ORDER BY r.report_at LIMIT @limit)
     RETURNING *`,
  )

  return {
    /** `notify`: the app had a callback URL when the message went out, so it will be called back. */
    insert(r: Report, notify: boolean): void {
      insert.run({ ...r, notify: notify ? 1 : 0 })
    },
    /** Up to `limit` reports that arrived after `since` and were never handed out, oldest first. */
    pull(appKey: string, now: number, since: number, limit: number): Report[] {
      return pull.all({ appKey, now, since, limit }).map(toReport).sort(byTime)
    },
    /** Reports of any app whose time has come and that still have to be called back. */
    takeDueNotifications(now: number, limit: number): Report[] {
      return takeDue.all({ now, limit }).map(toReport).sort(byTime)
    },
  }
}
