-- A callback's and a reply's id come from a sequence, as msg_ids do (store/engine/id-blocks.ts),
-- instead of SQLite's "largest rowid + 1": an import keeps the ids of its document, and the
-- sequence then skips past them before it writes its rows (sandbox/app/transfer.ts), so no other
-- app can be handed one of them meanwhile, and an id never goes past the range the sandbox hands out.
INSERT INTO sequences (name, value) SELECT 'callback_id', coalesce(max(id), 0) FROM callbacks;
INSERT INTO sequences (name, value) SELECT 'reply_id', coalesce(max(id), 0) FROM replies;
