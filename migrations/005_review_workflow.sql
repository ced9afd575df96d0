-- Review results are recorded by the one review workflow of templates and signatures
-- (src/store/sms/reviewable.ts), in the same write as the decision, instead of by one trigger per
-- table (migration 002). Every decision goes through that workflow, and the statement that records
-- a result is also the one that tells the scheduler a callback has fallen due.
DROP TRIGGER templates_reviewed;
DROP TRIGGER signs_reviewed;
