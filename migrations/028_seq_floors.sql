-- The seq an app's counter had reached when its rows were deleted (a reset, an import, a removal:
-- engine/item-seqs.ts `carryOver`). Its counter is kept in memory and read again from the largest
-- seq of its rows when memory lets it go (past 10 000 apps) or the process restarts; once the rows
-- that held the largest are gone, this row holds it, so no seq is handed out twice. Global (no
-- `app_key` column): it outlives the app's rows, and the app itself, on purpose.
CREATE TABLE seq_floors (
  app  TEXT PRIMARY KEY,
  seq  INTEGER NOT NULL
) WITHOUT ROWID;
