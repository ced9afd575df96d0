-- JPush v3: the app's device registry (devices, tags, aliases), accepted pushes, and what each
-- device received. Times are epoch milliseconds on the app's clock.

-- msg_ids of pushes are 17 digits, as the live service's are (jpush-api.md §5.8): '181' and this
-- counter in 14 digits (the counter stays a safe JavaScript integer; the id is a string).
INSERT INTO sequences (name, value) VALUES ('push_msg_id', 0);

CREATE TABLE push_devices (
  app_key          TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  registration_id  TEXT NOT NULL,
  platform         TEXT NOT NULL,                -- android | ios | hmos | quickapp | winphone
  alias            TEXT,
  mobile           TEXT,
  online           INTEGER NOT NULL DEFAULT 0,
  last_online_at   INTEGER,                      -- when it was last seen online
  created_at       INTEGER NOT NULL,
  PRIMARY KEY (app_key, registration_id)
);
CREATE INDEX push_devices_by_alias ON push_devices (app_key, alias);

CREATE TABLE push_device_tags (
  app_key          TEXT NOT NULL,
  registration_id  TEXT NOT NULL,
  tag              TEXT NOT NULL,
  PRIMARY KEY (app_key, registration_id, tag),
  FOREIGN KEY (app_key, registration_id) REFERENCES push_devices (app_key, registration_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX push_device_tags_by_tag ON push_device_tags (app_key, tag);

-- One row per accepted push (validate stores nothing).
CREATE TABLE pushes (
  msg_id        TEXT PRIMARY KEY,
  app_key       TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  sendno        TEXT NOT NULL,
  cid           TEXT,
  payload       TEXT NOT NULL,                   -- the request body as accepted (JSON)
  broadcast     INTEGER NOT NULL,                -- audience "all": counts toward the daily limit
  day_key       TEXT NOT NULL,                   -- yyyy-MM-dd in the sandbox time zone
  time_to_live  INTEGER NOT NULL,                -- seconds
  created_at    INTEGER NOT NULL
);
CREATE INDEX pushes_by_app ON pushes (app_key, created_at);
CREATE INDEX pushes_by_cid ON pushes (app_key, cid);
CREATE INDEX pushes_by_day ON pushes (app_key, day_key, broadcast);

-- One row per targeted device: pending until it is online, delivered, or expired after
-- time_to_live. The SMS fallback (sms_message) is tracked on the same row.
CREATE TABLE push_deliveries (
  msg_id           TEXT NOT NULL REFERENCES pushes (msg_id) ON DELETE CASCADE,
  app_key          TEXT NOT NULL,
  registration_id  TEXT NOT NULL,
  platform         TEXT NOT NULL,
  status           TEXT NOT NULL,                -- pending | delivered | expired
  expires_at       INTEGER NOT NULL,
  delivered_at     INTEGER,
  sms_due_at       INTEGER,                      -- NULL: no fallback (no sms_message or no mobile)
  sms_msg_id       TEXT,                         -- the JSMS msg_id of the fallback text
  sms_error        INTEGER,                      -- JSMS code when the fallback was refused
  PRIMARY KEY (msg_id, registration_id)
);
CREATE INDEX push_deliveries_pending ON push_deliveries (app_key, status, expires_at);
CREATE INDEX push_deliveries_by_device ON push_deliveries (app_key, registration_id, status);
CREATE INDEX push_deliveries_sms_due ON push_deliveries (sms_due_at) WHERE sms_due_at IS NOT NULL AND sms_msg_id IS NULL AND sms_error IS NULL;
