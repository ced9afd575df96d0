-- The request journal and each app's activity (issue 20): what a CI job's failed test needs to
-- learn why the sandbox answered as it did, and the operator's list of every app.

-- One row per /v1 or /v3 request that named an app (also one refused for its credentials, when its
-- appKey exists) and per /_sandbox write, newest N kept per app (JOURNAL_MAX_PER_APP). Its `seq`
-- comes from the app's counter (migration 011): `request.completed` on the event stream. Written in
-- the next group commit after the answer (src/journal/recorder.ts), never with an fsync of its own.
CREATE TABLE requests (
  app_key       TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  at            INTEGER NOT NULL,              -- the app's clock, when answered
  real_at       INTEGER NOT NULL,              -- real time (epoch ms), when answered
  method        TEXT NOT NULL,
  path          TEXT NOT NULL,                 -- without the query string
  query         TEXT,                          -- after `?`, tokens redacted
  surface       TEXT NOT NULL,                 -- sms (/v1) | push (/v3) | sandbox (/_sandbox)
  status        INTEGER NOT NULL,
  code          INTEGER,                       -- the refusal's code; NULL when answered 2xx
  message       TEXT,                          -- the refusal's message, as the answer says it
  reason        TEXT,                          -- why the sandbox refused, in words (never in the answer)
  ids           TEXT,                          -- JSON {"schedule_id":["…"],…}: ids the path names, and those an
                                               -- answer too long to keep created (the others are read from it)
  duration_ms   REAL NOT NULL,
  client        TEXT NOT NULL,                 -- the client's address
  user_agent    TEXT,
  operator      INTEGER NOT NULL DEFAULT 0,    -- 1: the operator's credentials acted for the app
  request_body  TEXT,                          -- capped, secrets redacted
  answer_body   TEXT                           -- capped, secrets redacted
);
-- Listed newest first by seq, and pruned to the newest N: rows are appended at the rowid's end,
-- which a WITHOUT ROWID table keyed by (app_key, seq) would not do for rows this large.
CREATE UNIQUE INDEX requests_by_seq ON requests (app_key, seq);

-- Per app: its requests and refusals so far, its last request, and `activity`, a process-wide
-- order of the latest activity of each app (its creation, then each journaled request), for the
-- operator's GET /_sandbox/apps (newest activity first; `after=` and `wait=` follow it). No index
-- on `activity`: touched with every commit of the journal, it would move in it each time (two
-- more pages in every commit of a send), while the operator's list, rare, sorts the apps.
CREATE TABLE app_activity (
  app_key          TEXT PRIMARY KEY REFERENCES apps (app_key) ON DELETE CASCADE,
  activity         INTEGER NOT NULL,
  last_request_at  INTEGER,                    -- real time (epoch ms); NULL: none yet
  requests         INTEGER NOT NULL DEFAULT 0,
  refusals         INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

-- The apps that exist: active in the order they were made.
INSERT INTO app_activity (app_key, activity)
  SELECT app_key, row_number() OVER (ORDER BY created_at, app_key) FROM apps;
