-- The change feed's `since` (contract §12): changes whose time (a tombstone's: its deletion time)
-- is at or after since. Without this index a recent since walked sync_seq from the start of the
-- store, filtering every row (5 s at 1,000,000 records for a since past the newest change). With
-- it the planner reads the few recent rows by time and sorts them by sync_seq, or keeps the
-- sync_seq walk when since matches much of the store; sync_seq is in the key so the keyset
-- bounds (after the cursor, up to the sync watermark) are checked in the index.
CREATE INDEX opportunities_change_time ON opportunities ((COALESCE(deleted_at, changed_at)), sync_seq);
-- The planner needs statistics on the new expression to know a recent since matches few rows;
-- without them it assumes a third of the table does and keeps walking sync_seq.
ANALYZE opportunities;
