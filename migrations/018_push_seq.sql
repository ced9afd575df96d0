-- push.sent (issue 21): an accepted push carries the seq of its event, as a sent SMS does
-- (migration 011), so the push path writes no event row; the stream reads the pushes themselves.
-- NULL for the pushes accepted before this migration (they were never an event).
ALTER TABLE pushes ADD COLUMN seq INTEGER;
-- The app's pushes by seq replace them by creation time, so that a push still writes as many
-- B-trees as before: within an app, seqs follow creation times (an app's clock never moves back
-- but with a reset, which removes its pushes), so the latest push is the one of the largest seq
-- (store/push/pushes.ts). Counting an app's pushes reads either index alike.
DROP INDEX pushes_by_app;
CREATE INDEX pushes_by_app ON pushes (app_key, seq);
