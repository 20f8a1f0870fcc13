-- A page's "which of these ids are new" probe (billing/ledger-sql.ts USAGE_AND_NEW_IDS) must look
-- each id up by the primary key (account_id, period_start, opportunity_id). The time index of
-- migration 006 shared that key's first two columns, so with statistics that lag behind the ledger
-- (autovacuum off, a table never analysed, a prepared statement's generic plan) both indexes cost
-- the same to the planner, and it chose the time index: every probe then walked the account's
-- whole period (20,000 rows per id, 18-50 ms of Postgres per page at 1M records). Keyed by account
-- and time alone, the time index can no longer serve the probe as cheaply as the primary key, and
-- it still serves what it is for: the deliveries since the newest a process holds
-- (billing/period-deliveries.ts, `delivered_at >` a time, the period checked on the few rows found).
DROP INDEX metering_deliveries_time;
CREATE INDEX metering_deliveries_time ON metering_deliveries (account_id, delivered_at);
