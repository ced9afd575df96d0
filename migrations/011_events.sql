-- Sequence numbers and the event log of the control plane (issue 12 §3, §4, §6).
--
-- Everything a test can list, wait for or stream carries `seq`: one counter per app across every
-- kind, so `after=<seq>` and the event stream's `Last-Event-ID` mean the same thing everywhere.
-- The numbers are handed out by src/store/engine/item-seqs.ts (in memory, from the largest stored one at an
-- app's first use: one process per database file, store/engine/lock.ts). An item that has a row of its
-- own carries its seq there (a sent SMS, an arrived report, a delivered push, a callback, a reply),
-- so the hot paths write no extra row; what has no row of its own (a clock move, a review decided,
-- a schedule fired, a callback attempt, a reply, a reset…) goes to `events`, pruned per app.

-- A sent SMS: its seq is that of sms.sent.
ALTER TABLE messages ADD COLUMN seq INTEGER;
-- NULL until the report arrives at report_at (the scheduler gives it its seq: sms.report).
ALTER TABLE reports ADD COLUMN seq INTEGER;
-- NULL until delivered (push.delivered); the device's alias at that moment, so a push delivered
-- to an alias is still found by it once the alias moved on.
ALTER TABLE push_deliveries ADD COLUMN seq INTEGER;
ALTER TABLE push_deliveries ADD COLUMN alias TEXT;
-- Its latest change: queued, then each attempt (callback.attempt).
ALTER TABLE callbacks ADD COLUMN seq INTEGER;
ALTER TABLE replies ADD COLUMN seq INTEGER;

CREATE TABLE events (
  app_key  TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  type     TEXT NOT NULL,                 -- clock.moved, review.decided, schedule.fired, …
  at       INTEGER NOT NULL,              -- the app's clock
  data     TEXT NOT NULL,                 -- JSON, shaped like the matching inspection item
  PRIMARY KEY (app_key, seq)
) WITHOUT ROWID;

-- What existed before this migration gets seqs in the order it happened, per app. Reports get
-- theirs when the scheduler next runs (they all count as arriving then).
CREATE TEMP TABLE seq_backfill AS
SELECT src, k1, k2, row_number() OVER (PARTITION BY app_key ORDER BY at, src, k1, k2) AS seq FROM (
  SELECT 'm' AS src, app_key, msg_id AS k1, '' AS k2, created_at AS at FROM messages
  UNION ALL
  SELECT 'd', app_key, msg_id, registration_id, delivered_at FROM push_deliveries WHERE status = 'delivered'
  UNION ALL
  SELECT 'c', app_key, CAST(id AS TEXT), '', created_at FROM callbacks
  UNION ALL
  SELECT 'r', app_key, CAST(id AS TEXT), '', reply_at FROM replies
);
CREATE INDEX temp.seq_backfill_key ON seq_backfill (src, k1, k2);
UPDATE messages SET seq = b.seq FROM seq_backfill b WHERE b.src = 'm' AND b.k1 = messages.msg_id;
UPDATE push_deliveries SET seq = b.seq FROM seq_backfill b
  WHERE b.src = 'd' AND b.k1 = push_deliveries.msg_id AND b.k2 = push_deliveries.registration_id;
UPDATE callbacks SET seq = b.seq FROM seq_backfill b WHERE b.src = 'c' AND b.k1 = CAST(callbacks.id AS TEXT);
UPDATE replies SET seq = b.seq FROM seq_backfill b WHERE b.src = 'r' AND b.k1 = CAST(replies.id AS TEXT);
DROP TABLE temp.seq_backfill;

-- Lists are newest first by seq, and `after=` reads past a seq: one (app_key, seq) index per
-- table. They replace the (app_key, created_at | id) indexes the lists used before.
DROP INDEX messages_by_app;
CREATE INDEX messages_by_seq ON messages (app_key, seq);
DROP INDEX callbacks_by_app;
CREATE INDEX callbacks_by_seq ON callbacks (app_key, seq);
CREATE INDEX replies_by_seq ON replies (app_key, seq);
-- Partial: a report gets its seq only when it arrives, a delivery when it is delivered.
CREATE INDEX reports_by_seq ON reports (app_key, seq) WHERE seq IS NOT NULL;
CREATE INDEX push_deliveries_by_seq ON push_deliveries (app_key, seq) WHERE seq IS NOT NULL;
-- Every report is due work until it arrived (it was only the ones to call back: notify = 1).
DROP INDEX reports_notify;
CREATE INDEX reports_arriving ON reports (app_key, report_at) WHERE seq IS NULL;
