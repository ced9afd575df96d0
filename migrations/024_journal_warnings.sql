-- The production advisor (issue 30, part 3): an accepted vendor call that production would treat
-- otherwise (a marketing text at 23:00, a push to a Xiaomi phone without its channel) carries
-- warnings, each `{"rule","message","source"}` (src/advisor/). Kept with the request's journal
-- entry as a JSON array; NULL for the calls that had none (nearly all of them), so that a row
-- without warnings costs nothing more, and `?warning=any` is `warnings IS NOT NULL`.
ALTER TABLE requests ADD COLUMN warnings TEXT;
