-- Idle auto-provisioned apps expire (issue 33: apps never expired, so a few addresses filled
-- AUTO_PROVISION_MAX_APPS for good). `idle_since`: for an app that expires when idle, the process
-- time of its last activity the expiry job knows of (its creation, then what the job saw when it
-- looked: its last journaled request, a request of any kind since the start, a stream or a wait
-- open); NULL for an app that never expires (the default app, a seed file's, one the Admin API
-- made). A lower bound of its real last activity: the job looks again when it falls due
-- (src/app-expiry.ts), so no request writes it. Local to this sandbox: an export leaves it out.
ALTER TABLE app_activity ADD COLUMN idle_since INTEGER;
-- The next app to look at, without a scan of every app. Partial: the apps that never expire are
-- not in it, and the journal's touches (other columns) never move a row in it.
CREATE INDEX app_activity_idle ON app_activity (idle_since) WHERE idle_since IS NOT NULL;
-- The apps auto-provisioned before this: an app whose developer is its appKey reversed
-- (src/seed/provision.ts, ownDeveloperOf), 24 characters. Each gets a whole idle time from the
-- upgrade on, not a removal at the first tick.
UPDATE app_activity SET idle_since = max(
    (SELECT a.created_at FROM apps a WHERE a.app_key = app_activity.app_key),
    coalesce(last_request_at, 0),
    CAST(strftime('%s', 'now') AS INTEGER) * 1000)
  WHERE app_key IN (SELECT a.app_key FROM apps a WHERE length(a.app_key) = 24
    AND a.dev_key = substr(a.app_key, 24, 1) || substr(a.app_key, 23, 1) || substr(a.app_key, 22, 1) || substr(a.app_key, 21, 1) || substr(a.app_key, 20, 1) || substr(a.app_key, 19, 1) || substr(a.app_key, 18, 1) || substr(a.app_key, 17, 1) || substr(a.app_key, 16, 1) || substr(a.app_key, 15, 1) || substr(a.app_key, 14, 1) || substr(a.app_key, 13, 1) || substr(a.app_key, 12, 1) || substr(a.app_key, 11, 1) || substr(a.app_key, 10, 1) || substr(a.app_key, 9, 1) || substr(a.app_key, 8, 1) || substr(a.app_key, 7, 1) || substr(a.app_key, 6, 1) || substr(a.app_key, 5, 1) || substr(a.app_key, 4, 1) || substr(a.app_key, 3, 1) || substr(a.app_key, 2, 1) || substr(a.app_key, 1, 1));
