-- The push variants of jpush-api.md §5.14: withdrawn pushes, push callbacks with their own URL,
-- the files of file push, and the group of apps a group push reaches. Times are epoch
-- milliseconds on the owning app's clock.

-- DELETE /v3/push/{msg_id}: when the push was withdrawn. Deliveries still pending become
-- 'withdrawn' (push_deliveries.status) and never arrive; delivered ones keep their status.
ALTER TABLE pushes ADD COLUMN withdrawn_at INTEGER;

-- A push's `callback.url` (jpush-api.md §5.1): where that callback goes. NULL: the app's
-- callback_url, as for every JSMS callback.
ALTER TABLE callbacks ADD COLUMN url TEXT;

-- POST /v3/files/{alias|registration_id}: the ids of one uploaded file, one per line (trimmed,
-- blank lines and repeats dropped), good until expires_at.
CREATE TABLE push_files (
  file_id      TEXT PRIMARY KEY,                 -- <appkey>-<uuid>
  app_key      TEXT NOT NULL REFERENCES apps (app_key) ON DELETE CASCADE,
  type         TEXT NOT NULL,                    -- alias | registration_id
  file_name    TEXT NOT NULL,
  entries      TEXT NOT NULL,
  entry_count  INTEGER NOT NULL,
  ttl          INTEGER,                          -- hours, as given; NULL: not given (720)
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE INDEX push_files_by_app ON push_files (app_key, expires_at);

-- A group is the apps whose settings name it (settings.group.group_key, seed file or
-- /_sandbox/push/group): group push looks them up by that key.
CREATE INDEX apps_by_group ON apps (json_extract(settings, '$.group.group_key'));
