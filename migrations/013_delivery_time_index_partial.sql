-- The time index serves one read: the deliveries of an account since a time
-- (billing/period-deliveries.ts). Keyed (account_id, delivered_at), it could still serve any lookup
-- by account, and with statistics taken before the account delivered anything (autovacuum off, an
-- agent's burst between two retention steps) the planner took the account for one with no rows and
-- every index on account_id for as cheap as the primary key. It then chose this one, the smaller,
-- for the lookups of ids by the primary key: a page's "which ids are new" probe (ledger-sql.ts
-- USAGE_AND_NEW_IDS), the "all delivered" check (delivered.ts) and meter_charge's own UPDATE and
-- DELETE of a page's rows. Each walked the account's whole history: 0.4-0.7 s a page at 200,000
-- deliveries. A partial index is used only by a query whose conditions imply its predicate, and
-- only a condition on delivered_at (a strict comparison) implies `delivered_at IS NOT NULL`: the
-- lookups by id never name delivered_at, so they can only use the primary key, whatever the
-- statistics. The predicate holds for every row (the column is NOT NULL): the index is as before.
DROP INDEX metering_deliveries_time;
CREATE INDEX metering_deliveries_time ON metering_deliveries (account_id, delivered_at)
  WHERE delivered_at IS NOT NULL;
