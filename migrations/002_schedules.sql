-- Scheduled messages, delivery reports, uplink replies and callbacks (jsms-api.md §2.6, §2.8, §6).
-- Every due time is epoch milliseconds on the owning app's clock (process clock + clock_offset_ms),
-- so the scheduler finds due work by comparing with `now + apps.clock_offset_ms`.

CREATE TABLE schedules (
  schedule_id  TEXT PRIMARY KEY,              -- UUID string, as the vendor's
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  batch        INTEGER NOT NULL,              -- 1: created through /v1/schedule/batch
  temp_id      INTEGER NOT NULL,
  sign_id      INTEGER,                       -- NULL: the app's default signature when it fires
  tag          TEXT,
  send_at      INTEGER NOT NULL,
  status       TEXT NOT NULL,                 -- pending | sent | deleted
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  sent_at      INTEGER
);
CREATE INDEX schedules_pending ON schedules (status, send_at);
CREATE INDEX schedules_by_app ON schedules (app_key, created_at);

-- The msg_id of each recipient is allocated at submission (GET shows it before the task runs)
-- and becomes the id of the message when it fires. A recipient refused at fire time keeps its
-- error here.
CREATE TABLE schedule_recipients (
  schedule_id    TEXT NOT NULL REFERENCES schedules (schedule_id) ON DELETE CASCADE,
  position       INTEGER NOT NULL,
  msg_id         TEXT NOT NULL,
  mobile         TEXT NOT NULL,
  temp_para      TEXT NOT NULL,               -- JSON object
  error_code     INTEGER,
  error_message  TEXT,
  PRIMARY KEY (schedule_id, position)
) WITHOUT ROWID;

-- One delivery report per message sent (and per scheduled recipient refused when it fired).
CREATE TABLE reports (
  msg_id      TEXT PRIMARY KEY,
  app_key     TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  mobile      TEXT NOT NULL,
  status      INTEGER NOT NULL,               -- 4001 delivered … 4100 other (jsms-api.md §2.8)
  report_at   INTEGER NOT NULL,               -- receiveTime: visible from then on
  notify      INTEGER NOT NULL,               -- 1: still to be called back (app had a callback URL)
  pulled_at   INTEGER                         -- handed out by GET /v1/report (once only)
);
CREATE INDEX reports_pull ON reports (app_key, pulled_at, report_at);
CREATE INDEX reports_notify ON reports (report_at) WHERE notify = 1;

CREATE TABLE replies (
  id          INTEGER PRIMARY KEY,
  app_key     TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  mobile      TEXT NOT NULL,
  content     TEXT NOT NULL,
  reply_at    INTEGER NOT NULL,
  pulled_at   INTEGER
);
CREATE INDEX replies_pull ON replies (app_key, pulled_at, reply_at);

-- The callback outbox: one row per notification, retried after 3 min, 1 h, 12 h (jsms-api.md §6).
CREATE TABLE callbacks (
  id               INTEGER PRIMARY KEY,
  app_key          TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  type             TEXT NOT NULL,             -- SMS_REPORT | SMS_REPLY | SMS_TEMPLATE | SMS_SIGN
  data             TEXT NOT NULL,             -- JSON, sent as the `data` form field
  state            TEXT NOT NULL,             -- pending | sending | delivered | failed
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  created_at       INTEGER NOT NULL
);
CREATE INDEX callbacks_due ON callbacks (state, next_attempt_at);
CREATE INDEX callbacks_by_app ON callbacks (app_key, id);

CREATE TABLE callback_attempts (
  callback_id  INTEGER NOT NULL REFERENCES callbacks (id) ON DELETE CASCADE,
  attempt      INTEGER NOT NULL,
  url          TEXT NOT NULL,
  at           INTEGER NOT NULL,
  status_code  INTEGER,                       -- NULL when no answer came (refused, timeout)
  error        TEXT,
  PRIMARY KEY (callback_id, attempt)
) WITHOUT ROWID;

-- Review results, however they were reached (settled on the clock by the scheduler or lazily by a
-- request, decided through the control API): the scheduler turns them into SMS_TEMPLATE/SMS_SIGN
-- callbacks. A trigger catches every path without touching the code that decides.
CREATE TABLE review_events (
  id             INTEGER PRIMARY KEY,
  app_key        TEXT NOT NULL,
  kind           TEXT NOT NULL,               -- template | sign
  ref_id         INTEGER NOT NULL,
  status         INTEGER NOT NULL,            -- 1 approved, 2 rejected
  refuse_reason  TEXT,
  at             INTEGER NOT NULL
);

CREATE TRIGGER templates_reviewed AFTER UPDATE OF status ON templates
WHEN NEW.status IN (1, 2) AND NEW.status <> OLD.status
BEGIN
  INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
  VALUES (NEW.app_key, 'template', NEW.temp_id, NEW.status, NEW.refuse_reason, NEW.updated_at);
END;

CREATE TRIGGER signs_reviewed AFTER UPDATE OF status ON signs
WHEN NEW.status IN (1, 2) AND NEW.status <> OLD.status
BEGIN
  INSERT INTO review_events (app_key, kind, ref_id, status, refuse_reason, at)
  VALUES (NEW.app_key, 'sign', NEW.sign_id, NEW.status, NEW.refuse_reason, NEW.updated_at);
END;

-- The scheduler looks for reviews whose time has come after every request: keep that cheap.
CREATE INDEX templates_in_review ON templates (review_at) WHERE status = 0 AND review_at IS NOT NULL;
CREATE INDEX signs_in_review ON signs (review_at) WHERE status = 0 AND review_at IS NOT NULL;
