-- Issue 19: a push to a large audience writes its deliveries in slices, one write job each, so
-- that no other tenant waits behind it (push/delivery/slices.ts). The plan is durable: the push
-- row says how far its slices have gone, and what the process did not finish before it stopped
-- is finished after the restart (the due-work entry `fan-out`).

-- NULL once every delivery is written; else {"after":[created_at,rowid],"end":[created_at,rowid]}:
-- the registry's devices after `after` and up to `end` (the last device when the push was made)
-- are still to be gone through, in registry order.
ALTER TABLE pushes ADD COLUMN fan_out TEXT;
-- The audience, when the payload does not carry it itself (a file push's aliases or ids).
ALTER TABLE pushes ADD COLUMN fan_out_audience TEXT;
CREATE INDEX pushes_fanning_out ON pushes (created_at) WHERE fan_out IS NOT NULL;

-- The registry in its order (registration time, then rowid), one slice after another, without
-- sorting the app's devices for each slice.
CREATE INDEX push_devices_in_order ON push_devices (app_key, created_at);
