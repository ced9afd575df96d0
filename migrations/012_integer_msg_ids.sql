-- Fewer B-trees per SMS and per push (issue 11, docs/performance.md).
--
-- An SMS msg_id is a decimal number from the msg_id sequence (600000000001…): kept as the rowid of
-- `messages`, `reports` and `codes` (INTEGER PRIMARY KEY) instead of a TEXT primary key, each
-- insert writes one B-tree less (the table's own, not an extra `sqlite_autoindex_…`). The wire
-- still carries it as a string (src/store/sms/msg-ids.ts converts at the store's edge).
--
-- Tables are rebuilt under new names, filled, the old ones dropped, then renamed: with foreign keys
-- on (the migration runs in a transaction, where PRAGMA foreign_keys cannot change), dropping
-- `messages` deletes its rows first and cascades to whatever references `messages` by then, so
-- `codes_012` references `messages_012` until the renames (a rename rewrites that reference).

CREATE TABLE messages_012 (
  msg_id       INTEGER PRIMARY KEY,
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  mobile       TEXT NOT NULL,
  kind         TEXT NOT NULL,                  -- code | voice_code | template
  temp_id      INTEGER,
  temp_type    INTEGER,                        -- template type at send time; frequency rules key on it
  sign_id      INTEGER,
  temp_para    TEXT,                           -- JSON object
  content      TEXT NOT NULL,                  -- rendered text, signature included
  units        INTEGER NOT NULL,               -- billed SMS count
  tag          TEXT,
  schedule_id  TEXT,
  created_at   INTEGER NOT NULL,
  seq          INTEGER                         -- its sms.sent event (migration 011)
);
INSERT INTO messages_012 (msg_id, app_key, mobile, kind, temp_id, temp_type, sign_id, temp_para, content, units,
    tag, schedule_id, created_at, seq)
  SELECT CAST(msg_id AS INTEGER), app_key, mobile, kind, temp_id, temp_type, sign_id, temp_para, content, units,
    tag, schedule_id, created_at, seq
  FROM messages;

CREATE TABLE codes_012 (
  msg_id       INTEGER PRIMARY KEY REFERENCES messages_012 (msg_id) ON DELETE CASCADE,
  app_key      TEXT NOT NULL,
  mobile       TEXT NOT NULL,
  code         TEXT NOT NULL,
  expires_at   INTEGER NOT NULL,
  verified_at  INTEGER
);
INSERT INTO codes_012 (msg_id, app_key, mobile, code, expires_at, verified_at)
  SELECT CAST(msg_id AS INTEGER), app_key, mobile, code, expires_at, verified_at FROM codes;

CREATE TABLE reports_012 (
  msg_id      INTEGER PRIMARY KEY,
  app_key     TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  mobile      TEXT NOT NULL,
  status      INTEGER NOT NULL,               -- 4001 delivered … 4100 other (jsms-api.md §2.8)
  report_at   INTEGER NOT NULL,               -- receiveTime: visible from then on
  notify      INTEGER NOT NULL,               -- 1: still to be called back (app had a callback URL)
  pulled_at   INTEGER,                        -- handed out by GET /v1/report (once only)
  seq         INTEGER                         -- NULL until it arrived (migration 011)
);
INSERT INTO reports_012 (msg_id, app_key, mobile, status, report_at, notify, pulled_at, seq)
  SELECT CAST(msg_id AS INTEGER), app_key, mobile, status, report_at, notify, pulled_at, seq FROM reports;

DROP TABLE codes;
DROP TABLE reports;
DROP TABLE messages;
ALTER TABLE messages_012 RENAME TO messages;
ALTER TABLE codes_012 RENAME TO codes;
ALTER TABLE reports_012 RENAME TO reports;

-- The indexes the dropped tables had, under the same names (src/store reads some INDEXED BY).
CREATE INDEX messages_by_mobile ON messages (app_key, mobile, created_at);
CREATE INDEX messages_by_seq ON messages (app_key, seq);
CREATE INDEX codes_by_mobile ON codes (app_key, mobile);
CREATE INDEX reports_pull ON reports (app_key, pulled_at, report_at);
CREATE INDEX reports_by_seq ON reports (app_key, seq) WHERE seq IS NOT NULL;
CREATE INDEX reports_arriving ON reports (app_key, report_at) WHERE seq IS NULL;

-- Every push wrote an entry for its cid (nearly always none) and its day (counted only for
-- broadcasts): each index now holds only the pushes it is asked about (store/push/pushes.ts).
DROP INDEX pushes_by_cid;
CREATE INDEX pushes_by_cid ON pushes (app_key, cid) WHERE cid IS NOT NULL;
DROP INDEX pushes_by_day;
CREATE INDEX pushes_by_day ON pushes (app_key, day_key) WHERE broadcast = 1;

-- A delivery made at once (its device online) is never pending, and only pending ones are looked
-- up by app and expiry (`expire`, store/push/deliveries.ts): such a delivery writes one B-tree less.
DROP INDEX push_deliveries_pending;
CREATE INDEX push_deliveries_pending ON push_deliveries (app_key, expires_at) WHERE status = 'pending';
