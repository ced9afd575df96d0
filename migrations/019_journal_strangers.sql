-- The request journal's strangers (issue 33): a request that names an app without authenticating
-- as it (a wrong secret, anyone who knows only the appKey) is kept in a small ring of its own, so
-- that strangers can no longer push the app's own entries out of its journal
-- (src/store/events/requests.ts). Rows from before were all kept in the app's ring.
ALTER TABLE requests ADD COLUMN authenticated INTEGER NOT NULL DEFAULT 1;   -- 0: refused before it was the app's

-- The strangers' ring is found by its oldest row: a few rows per app, indexed apart, so that the
-- app's own appends never touch this index.
CREATE INDEX requests_strangers ON requests (app_key, seq) WHERE authenticated = 0;
