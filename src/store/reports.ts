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
  // Called back is handed out too (pulled_at): a callback URL removed later must not let the same
  // report be pulled a second time, and a steered status (sandbox) can no longer change it. An app
  // whose callback URL was removed before the report fell due gets it pulled instead.
  const takeDue = db.prepare<{ now: number; limit: number }, Row & { pulled_at: number | null }>(
    `UPDATE reports SET notify = 0, pulled_at = CASE WHEN EXISTS (
       SELECT 1 FROM apps a WHERE a.app_key = reports.app_key AND a.callback_url IS NOT NULL)
       THEN report_at END
     WHERE msg_id IN (
       SELECT r.msg_id FROM reports r JOIN apps a ON a.app_key = r.app_key
       WHERE r.notify = 1 AND r.report_at <= @now + a.clock_offset_ms
       ORDER BY r.report_at LIMIT @limit)
     RETURNING *`,
  )

  const find = db.prepare<[string, string], Row & { pulled_at: number | null }>(
    'SELECT * FROM reports WHERE msg_id = ? AND app_key = ?',
  )
  const steer = db.prepare<{ appKey: string; msgId: string; status: number }>(
    'UPDATE reports SET status = @status WHERE msg_id = @msgId AND app_key = @appKey AND pulled_at IS NULL',
  )

  return {
    /** The app's report of a message, and whether it was handed out (pulled or called back). */
    get(appKey: string, msgId: string): (Report & { handedOut: boolean }) | undefined {
      const row = find.get(msgId, appKey)
      return row && { ...toReport(row), handedOut: row.pulled_at !== null }
    },
    /** Gives a report not yet handed out another status; false when it was (or does not exist). */
    setStatus(appKey: string, msgId: string, status: number): boolean {
      return steer.run({ appKey, msgId, status }).changes === 1
    },
    /** `notify`: the app had a callback URL when the message went out, so it will be called back. */
    insert(r: Report, notify: boolean): void {
      insert.run({ ...r, notify: notify ? 1 : 0 })
    },
    /** Up to `limit` reports that arrived after `since` and were never handed out, oldest first. */
    pull(appKey: string, now: number, since: number, limit: number): Report[] {
      return pull.all({ appKey, now, since, limit }).map(toReport).sort(byTime)
    },
    /**
     * Reports of any app whose time has come and that still have to be called back; `callBack`
     * false for an app that has no callback URL any more (the report waits to be pulled).
     */
    takeDueNotifications(now: number, limit: number): Array<Report & { callBack: boolean }> {
      return takeDue
        .all({ now, limit })
        .map(r => ({ ...toReport(r), callBack: r.pulled_at !== null }))
        .sort(byTime)
    },
  }
}
