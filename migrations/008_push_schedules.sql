-- JPush schedules (jpush-api.md §8): tasks that push at a time (single) or at recurring times
-- (periodical), and each occurrence they fired. Times are epoch milliseconds on the app's clock.

CREATE TABLE push_schedules (
  schedule_id  TEXT PRIMARY KEY,                 -- a UUID
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  cid          TEXT,                             -- the creation's idempotency key, if any
  name         TEXT NOT NULL,
  enabled      INTEGER NOT NULL,
  kind         TEXT NOT NULL,                    -- single | periodical: fixed at creation
  trigger_json TEXT NOT NULL,                    -- the trigger section as accepted (JSON)
  push_json    TEXT NOT NULL,                    -- the push section as accepted (JSON)
  ends_at      INTEGER NOT NULL,                 -- single: its time; periodical: its end. Expired after
  next_due_at  INTEGER,                          -- the occurrence to fire next; NULL: none (disabled, over, deleted)
  deleted_at   INTEGER,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
-- The vendor's list and the 100-task limit: an app's tasks not deleted, by end.
CREATE INDEX push_schedules_active ON push_schedules (app_key, ends_at) WHERE deleted_at IS NULL;
CREATE INDEX push_schedules_by_app ON push_schedules (app_key, created_at);
CREATE INDEX push_schedules_by_cid ON push_schedules (app_key, cid) WHERE cid IS NOT NULL;
-- The scheduler's due query and its next due time read only the few tasks with something to fire.
CREATE INDEX push_schedules_due ON push_schedules (app_key, next_due_at) WHERE next_due_at IS NOT NULL;

-- One row per occurrence fired: its key makes a second firing of the same occurrence impossible.
CREATE TABLE push_schedule_firings (
  schedule_id    TEXT NOT NULL REFERENCES push_schedules (schedule_id) ON DELETE CASCADE,
  due_at         INTEGER NOT NULL,               -- the occurrence, and the time its push was made
  msg_id         TEXT NOT NULL,                  -- '' when the push was refused before it had one
  error_code     INTEGER NOT NULL,               -- 0: pushed
  error_message  TEXT NOT NULL,
  PRIMARY KEY (schedule_id, due_at)
) WITHOUT ROWID;
