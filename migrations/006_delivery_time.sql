-- new_count and unseen_only keep an account's delivered ids between requests and read only the
-- deliveries since the newest they hold (src/billing/delivered-cache.ts): this serves that read
-- without walking the period's whole ledger (200,000 rows for a busy account).
CREATE INDEX metering_deliveries_time ON metering_deliveries (account_id, period_start, delivered_at);
