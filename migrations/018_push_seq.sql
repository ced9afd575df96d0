-- push.sent (issue 21): an accepted push carries the seq of its event, as a sent SMS does
-- (migration 011), so the push path writes no event row; the stream reads the pushes themselves.
-- NULL for the pushes accepted before this migration (they were never an event).
ALTER TABLE pushes ADD COLUMN seq INTEGER;
CREATE INDEX pushes_by_seq ON pushes (app_key, seq) WHERE seq IS NOT NULL;
