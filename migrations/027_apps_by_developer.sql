-- A developer's apps without a scan of every app: the file API's developer credentials look up the
-- developer's first grouped app on each call (store/push/groups.ts `holderOf`), and a shared
-- sandbox holds thousands of apps (issue 32, point 4). In appKey order, as that lookup reads them.
CREATE INDEX apps_by_developer ON apps (dev_key, app_key);
