-- Tenants, SMS templates and signatures, sent messages and verification codes.
-- Times are epoch milliseconds on the sandbox clock. Balances: NULL means "no quota allocated"
-- (jsms-api.md §2.7).

CREATE TABLE developers (
  dev_key     TEXT PRIMARY KEY,
  dev_secret  TEXT NOT NULL,
  frozen      INTEGER NOT NULL DEFAULT 0,
  balance     INTEGER,
  voice       INTEGER,
  industry    INTEGER,
  market      INTEGER
);

CREATE TABLE apps (
  app_key          TEXT PRIMARY KEY,
  master_secret    TEXT NOT NULL,
  dev_key          TEXT NOT NULL REFERENCES developers (dev_key),
  blacklisted      INTEGER NOT NULL DEFAULT 0,
  sms_enabled      INTEGER NOT NULL DEFAULT 1,
  ip_whitelist     TEXT NOT NULL DEFAULT '[]',   -- JSON array of addresses; empty allows all
  sensitive_words  TEXT NOT NULL DEFAULT '[]',   -- JSON array, added to the global list
  callback_url     TEXT,
  settings         TEXT NOT NULL DEFAULT '{}',   -- JSON: per-app knobs later issues add (rate limits…)
  clock_offset_ms  INTEGER NOT NULL DEFAULT 0,   -- this app's clock runs ahead of the process clock
  balance          INTEGER,
  voice            INTEGER,
  industry         INTEGER,
  market           INTEGER,
  created_at       INTEGER NOT NULL
);

CREATE TABLE unsubscribed (
  app_key     TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  mobile      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (app_key, mobile)
) WITHOUT ROWID;

-- Global id sequences (msg_id, temp_id, sign_id…): allocated inside the writing transaction.
CREATE TABLE sequences (
  name   TEXT PRIMARY KEY,
  value  INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO sequences (name, value) VALUES ('msg_id', 600000000000), ('temp_id', 10000), ('sign_id', 10000);

CREATE TABLE templates (
  app_key         TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  temp_id         INTEGER NOT NULL,
  template        TEXT NOT NULL,
  type            INTEGER NOT NULL,             -- 1 verification code, 2 notification, 3 marketing
  ttl             INTEGER NOT NULL DEFAULT 0,
  remark          TEXT NOT NULL DEFAULT '',
  status          INTEGER NOT NULL,             -- 0 under review, 1 approved, 2 rejected
  refuse_reason   TEXT,
  review_at       INTEGER,                      -- a pending review completes at this time
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  PRIMARY KEY (app_key, temp_id)
);

CREATE TABLE signs (
  app_key         TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  sign_id         INTEGER NOT NULL,
  sign            TEXT NOT NULL,
  type            INTEGER,
  remark          TEXT NOT NULL DEFAULT '',
  images          INTEGER NOT NULL DEFAULT 0,   -- how many qualification images were sent
  status          INTEGER NOT NULL,             -- 0 under review, 1 approved, 2 rejected
  is_default      INTEGER NOT NULL DEFAULT 0,
  refuse_reason   TEXT,
  review_at       INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  PRIMARY KEY (app_key, sign_id)
);

-- Every SMS that was accepted and charged, immediate or scheduled.
CREATE TABLE messages (
  msg_id       TEXT PRIMARY KEY,
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
  created_at   INTEGER NOT NULL
);
CREATE INDEX messages_by_mobile ON messages (app_key, mobile, created_at);
CREATE INDEX messages_by_app ON messages (app_key, created_at);

CREATE TABLE codes (
  msg_id       TEXT PRIMARY KEY REFERENCES messages (msg_id) ON DELETE CASCADE,
  app_key      TEXT NOT NULL,
  mobile       TEXT NOT NULL,
  code         TEXT NOT NULL,
  expires_at   INTEGER NOT NULL,
  verified_at  INTEGER
);
CREATE INDEX codes_by_mobile ON codes (app_key, mobile);
