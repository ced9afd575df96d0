import { type DueQuery, dueQuery, type Engine } from '../../store/engine/index.js'
import { createLister, type ListWindow } from '../../store/engine/lister.js'
import { msgIdKey, msgIdText, newMsgIdKey } from '../msg-ids.js'

export interface Report {
  msgId: string
  appKey: string
  mobile: string
  status: number
  reportAt: number
}

/** A report that arrived: its sms.report event's seq. */
export type ArrivedReport = Report & { seq: number }

export type ReportFilter = ListWindow & { mobile?: string; msgId?: string }

interface Row {
  msg_id: number
  app_key: string
  mobile: string
  status: number
  report_at: number
  notify: number
  seq: number | null
}

const toReport = (r: Row): Report => ({
  msgId: msgIdText(r.msg_id),
  appKey: r.app_key,
  mobile: r.mobile,
  status: r.status,
  reportAt: r.report_at,
})

/**
 * `k(app_key)`: each app that has a report still to arrive (`seq IS NULL`: migration 011's partial
 * index reports_arriving on (app_key, report_at)), found by seeking the index from one app to the
 * next rather than reading it whole. Under a send load the index holds every message of the last
 * REPORT_DELAY_MS, tens of thousands, while only a few apps send: a query that starts from these
 * apps and seeks each one's due reports costs what arrives, not what is on its way
 * (docs/performance.md). SQLite has no loose index scan of its own without statistics; this is
 * the recursive form of one.
 */
const APPS_WITH_ARRIVING = `WITH RECURSIVE k(app_key) AS (
    SELECT (SELECT MIN(app_key) FROM reports INDEXED BY reports_arriving WHERE seq IS NULL)
    UNION ALL
    SELECT (SELECT MIN(app_key) FROM reports INDEXED BY reports_arriving WHERE seq IS NULL AND app_key > k.app_key)
    FROM k WHERE k.app_key IS NOT NULL
  )`

/**
 * Reports still to arrive, due at report_at. Every message sent in the last REPORT_DELAY_MS has
 * one: under a send load tens of thousands. The generic query over every app read them all, each
 * tick; this one seeks, through the partial index, each app that has one, then that app's first.
 */
export const REPORTS_DUE: DueQuery = {
  every: `${APPS_WITH_ARRIVING} SELECT MIN((SELECT MIN(x.report_at) FROM reports x INDEXED BY reports_arriving
      WHERE x.app_key = k.app_key AND x.seq IS NULL) - a.clock_offset_ms) AS t
    FROM k JOIN apps a ON a.app_key = k.app_key`,
  one: dueQuery('x.report_at', 'reports x', 'x.seq IS NULL').one,
}

const byTime = (a: Report, b: Report) => a.reportAt - b.reportAt || a.msgId.localeCompare(b.msgId)

/**
 * Delivery reports: pulled once each (GET /v1/report) or called back (SMS_REPORT). Each is due
 * work at its report_at: it arrives then (its seq, the sms.report event) and, for an app that
 * takes callbacks, goes into the outbox.
 */
export function createReportStore({ db, writes }: Engine) {
  // Positional: one per send. Due work at its report_at (it arrives then).
  const insert = writes<
    [msgId: number, appKey: string, mobile: string, status: number, reportAt: number, notify: number]
  >(
    `INSERT INTO reports (msg_id, app_key, mobile, status, report_at, notify)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    { key: r => r[1], due: { query: REPORTS_DUE, at: r => r[4] } },
  )
  // Select and mark in one statement: a record can be handed out only once.
  const pull = db.prepare<{ appKey: string; now: number; since: number; limit: number }, Row>(
    `UPDATE reports SET pulled_at = @now WHERE msg_id IN (
       SELECT msg_id FROM reports WHERE app_key = @appKey AND pulled_at IS NULL
         AND report_at <= @now AND report_at > @since
       ORDER BY report_at, msg_id LIMIT @limit)
     RETURNING *`,
  )
  // Through the partial index of the reports still to arrive (the last REPORT_DELAY_MS of sends);
  // `call_back`: it goes out as a callback (the app took callbacks when it was sent and still does).
  // Per app with reports still to arrive, only its due ones (APPS_WITH_ARRIVING): a tick reads
  // what arrives, not everything still on its way.
  const arriving = db.prepare<{ now: number; limit: number }, Row & { call_back: number }>(
    `${APPS_WITH_ARRIVING}
     SELECT r.*, (r.notify = 1 AND r.pulled_at IS NULL AND a.callback_url IS NOT NULL) AS call_back
     FROM k JOIN apps a ON a.app_key = k.app_key
       JOIN reports r INDEXED BY reports_arriving
         ON r.app_key = k.app_key AND r.seq IS NULL AND r.report_at <= @now + a.clock_offset_ms
     ORDER BY r.report_at, r.msg_id LIMIT @limit`,
  )
  // Called back is handed out too (pulled_at): a callback URL removed later must not let the same
  // report be pulled a second time, and a steered status (sandbox) can no longer change it. An app
  // whose callback URL was removed before the report fell due gets it pulled instead.
  // One statement for every report of a tick, `[msg_id, seq, call_back]` each, the seqs the
  // engine took: a statement per report was the larger part of a report's arrival
  // (docs/performance.md).
  const arrive = writes<Array<Row & { call_back: number }>>(
    `UPDATE reports SET seq = j.value ->> 1, notify = 0,
       pulled_at = CASE WHEN j.value ->> 2 = 1 THEN report_at ELSE pulled_at END
     FROM json_each(?) j WHERE reports.msg_id = j.value ->> 0`,
    {
      seqEach: {
        topic: 'reports',
        keys: rows => rows.map(r => r.app_key),
        bind: (rows, seqs) => JSON.stringify(rows.map((r, i) => [r.msg_id, seqs[i], r.call_back])),
      },
    },
  )
  const list = createLister<'mobile' | 'msgId', Row>(db, {
    columns: '*',
    from: 'reports',
    appKey: 'app_key',
    seq: 'seq',
    time: 'report_at',
    where: 'seq IS NOT NULL',
    // msg_id is the rowid (migration 012): SQLite looks it up before any index.
    filters: { mobile: 'mobile = @mobile', msgId: 'msg_id = @msgId' },
  })

  const find = db.prepare<[number, string], Row & { pulled_at: number | null }>(
    'SELECT * FROM reports WHERE msg_id = ? AND app_key = ?',
  )
  const steer = db.prepare<{ appKey: string; msgId: number; status: number }>(
    'UPDATE reports SET status = @status WHERE msg_id = @msgId AND app_key = @appKey AND pulled_at IS NULL',
  )

  return {
    /** The app's report of a message, and whether it was handed out (pulled or called back). */
    get(appKey: string, msgId: string): (Report & { handedOut: boolean }) | undefined {
      const row = find.get(msgIdKey(msgId), appKey)
      return row && { ...toReport(row), handedOut: row.pulled_at !== null }
    },
    /** Gives a report not yet handed out another status; false when it was (or does not exist). */
    setStatus(appKey: string, msgId: string, status: number): boolean {
      return steer.run({ appKey, msgId: msgIdKey(msgId), status }).changes === 1
    },
    /** `notify`: the app had a callback URL when the message went out, so it will be called back. */
    insert(r: Report, notify: boolean): void {
      insert.run([newMsgIdKey(r.msgId), r.appKey, r.mobile, r.status, r.reportAt, notify ? 1 : 0])
    },
    /** Up to `limit` reports that arrived after `since` and were never handed out, oldest first. */
    pull(appKey: string, now: number, since: number, limit: number): Report[] {
      return pull.all({ appKey, now, since, limit }).map(toReport).sort(byTime)
    },
    /**
     * Up to `limit` reports of any app whose time has come, oldest first: each gets its seq;
     * `callBack`: to be called back (the app had a callback URL when it went out and still has).
     */
    takeArrived(now: number, limit: number): Array<ArrivedReport & { callBack: boolean }> {
      const rows = arriving.all({ now, limit })
      if (rows.length === 0) return []
      // Seqs in the order of arrival (report_at, then msg_id), consecutive per app.
      const { seqs } = arrive.run(rows)
      return rows.map((r, i) => ({ ...toReport(r), seq: seqs[i] as number, callBack: r.call_back === 1 }))
    },
    /** Reports that arrived, newest first. */
    list(appKey: string, filter: ReportFilter): ArrivedReport[] {
      const query = filter.msgId === undefined ? filter : { ...filter, msgId: msgIdKey(filter.msgId) }
      return list(appKey, query).map(r => ({ ...toReport(r), seq: r.seq as number }))
    },
  }
}

declare module '../../store/index.js' {
  interface Tables {
    /** Delivery reports, due at report_at, pulled once each or called back (store.reports). */
    reports: ReturnType<typeof createReportStore>
  }
}
