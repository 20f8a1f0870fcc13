-- The first read of an account's deliveries in a process (billing/period-deliveries.ts,
-- PERIOD_DELIVERIES) joins every delivery of the period to its record for the record's number.
-- Only `id` and `record_num` are read, but the primary key holds `id` alone: the planner scanned
-- the whole table (1.9 GB at a million records, for the two columns) or fetched each record's
-- row, and at 200,000 deliveries the read took 2.2 s of a request's 5 s deadline. Both columns in
-- one index make that join an index-only scan (40 MB at a million records): 1.2 s. Neither column
-- changes after the record is stored, so an update still needs no entry here (a HOT update), and
-- a new record costs one more index entry.
CREATE INDEX opportunities_id_record_num ON opportunities (id) INCLUDE (record_num);
