/**
 * `k(app_key)`: each app that has a report still to arrive (`seq IS NULL`: migration 011's partial
 * index reports_arriving on (app_key, report_at)), found by seeking the index from one app to the
 * next rather than reading it whole. Under a send load the index holds every message of the last
 * REPORT_DELAY_MS, tens of thousands, while only a few apps send: a query that starts from these
 * apps and seeks each one's due reports costs what arrives, not what is on its way
 * (docs/performance.md). SQLite has no loose index scan of its own without statistics; this is
 * the recursive form of one.
 */
export const APPS_WITH_ARRIVING = `WITH RECURSIVE k(app_key) AS (
    SELECT (SELECT MIN(app_key) FROM reports INDEXED BY reports_arriving WHERE seq IS NULL)
    UNION ALL
    SELECT (SELECT MIN(app_key) FROM reports INDEXED BY reports_arriving WHERE seq IS NULL AND app_key > k.app_key)
    FROM k WHERE k.app_key IS NOT NULL
  )`
