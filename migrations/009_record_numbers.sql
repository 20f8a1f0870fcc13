-- A stable integer per record. new_count and unseen_only leave out the records
-- delivered to the account this period; sent to the search engine as record numbers in one roaring
-- bitmap (search/exclusions.ts) instead of up to 200,000 uuid strings. The number is given once,
-- when the record is first stored, and never changes (an update or a deletion keeps it); the
-- import gives one only to ids it has not seen (store/opportunity-repo.ts), so re-importing the
-- same records does not use numbers up. integer, not bigint: the search engine's bitmap filter
-- reads 32-bit sets (an integer field), and the sequence stops at 2^31 - 1 instead of wrapping.
-- Existing rows are numbered here (a rewrite of the table: about a minute per million records).
CREATE SEQUENCE opportunity_record_num AS integer;
ALTER TABLE opportunities
  ADD COLUMN record_num integer NOT NULL DEFAULT nextval('opportunity_record_num');
ALTER SEQUENCE opportunity_record_num OWNED BY opportunities.record_num;
ALTER TABLE opportunities ADD CONSTRAINT opportunities_record_num_key UNIQUE (record_num);

-- The sync watermark belongs to one index. If the search engine's data is
-- destroyed while Postgres is kept, a new index of the same name starts empty: the sync notices
-- its uuid differs from the one recorded here and starts again from watermark 0 (search/sync.ts).
ALTER TABLE sync_state ADD COLUMN index_uuid text;
