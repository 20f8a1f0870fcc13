import { ACCOUNT_COLUMNS, rowToAccount, type AccountRow } from '../store/account-repo';
import { accountBilling } from './account-limits';
import type { AccountBilling, PeriodUsage } from './snapshot';

// The meter's SQL (migration 004) and the mapping of its rows. Kept apart from meter.ts so that the
// order of the statements there reads on its own.

// The account's columns are the store's one list (store/account-repo.ts ACCOUNT_COLUMNS), which
// reads the plan by a scalar subquery so that it stays right under FOR UPDATE.

/** The account, without a lock (a page of repeats writes nothing, see Meter.deliver). */
export const ACCOUNT = `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1`;

/** Serialises this account's deliveries: the only lock a delivery takes first (no global lock). */
export const LOCK_ACCOUNT = `${ACCOUNT} FOR UPDATE`;

/** The account with its latest usage row that starts at or before $2 (no lock: headers, CLI). */
export const ACCOUNT_WITH_USAGE = `
  SELECT ${ACCOUNT_COLUMNS},
         u.period_start AS usage_period_start, u.used, u.included_used, u.payg_used
    FROM accounts a
    LEFT JOIN LATERAL (
      SELECT period_start, used, included_used, payg_used FROM metering_usage
       WHERE account_id = a.id AND period_start <= $2::timestamptz
       ORDER BY period_start DESC LIMIT 1) u ON true
   WHERE a.id = $1`;

/**
 * Run after LOCK_ACCOUNT, as its own statement: in READ COMMITTED each statement takes a fresh
 * snapshot, so this one sees everything the previous holder of the lock committed. Returns the
 * key's allowance, this period's usage and, in page order, which of the ids are new this period.
 * Each id is looked up by one probe of the primary key: a scalar subquery with LIMIT is never
 * turned into a join, so the plan stays cheap whatever the account's history and however stale
 * its statistics (NOT EXISTS and = ANY were both planned as a scan of the account's whole period
 * when the statistics lagged behind a fast-growing ledger). $1 account, $2 key, $3 period start,
 * $4 ids.
 */
export const USAGE_AND_NEW_IDS = `
  SELECT k.id IS NOT NULL AS key_found, k.allowance AS key_allowance,
         u.used, u.included_used, u.payg_used, ku.included_used AS key_included_used,
         ARRAY(
           SELECT t.id FROM unnest($4::uuid[]) WITH ORDINALITY AS t(id, n)
            WHERE (SELECT true FROM metering_deliveries d
                    WHERE d.account_id = $1 AND d.period_start = $3 AND d.opportunity_id = t.id
                    LIMIT 1) IS NULL
            GROUP BY t.id ORDER BY min(t.n))::text[] AS new_ids
    FROM (SELECT 1) AS one
    LEFT JOIN api_keys k ON k.id = $2::uuid AND k.account_id = $1::uuid
    LEFT JOIN metering_usage u ON u.account_id = $1::uuid AND u.period_start = $3::timestamptz
    LEFT JOIN metering_key_usage ku ON ku.key_id = $2::uuid AND ku.period_start = $3`;

/**
 * Records a delivery whose allocation is already decided and covered: the new ids (the first $6
 * included, the rest charged $7 each), the wallet debit and its ledger entry, and the period
 * counters, in one statement. It also gives the transaction back the server's configured commit
 * durability (normally `on`; the meter begins every transaction asynchronous, see transaction.ts):
 * whatever records money is as durable as the database is configured to be when COMMIT returns. $1 account, $2 key, $3 period start, $4 new ids in page order,
 * $5 request id, $6 included count, $7 price, $8 charge, $9 prepaid count, $10 period end.
 */
export const RECORD_DELIVERY = `
  WITH ins AS (
    INSERT INTO metering_deliveries
      (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
    SELECT $1::uuid, $3::timestamptz, t.id, $2::uuid, $5::text,
           CASE WHEN t.n <= $6::int THEN 0 ELSE $7::int END
      FROM unnest($4::uuid[]) WITH ORDINALITY AS t(id, n)
    ON CONFLICT DO NOTHING
    RETURNING charge_millicents
  ), wallet AS (
    UPDATE accounts SET balance_millicents = balance_millicents - $8::bigint
     WHERE id = $1 AND $8::bigint > 0
    RETURNING balance_millicents
  ), entry AS (
    INSERT INTO wallet_ledger
      (account_id, kind, request_id, amount_millicents, balance_after, period_start, opportunity_count)
    SELECT $1, 'charge', $5, -$8::bigint, balance_millicents, $3, $9::int FROM wallet
  ), usage AS (
    INSERT INTO metering_usage AS u
      (account_id, period_start, period_end, used, included_used, payg_used)
    VALUES ($1, $3, $10::timestamptz, $6 + $9, $6, $9)
    ON CONFLICT (account_id, period_start) DO UPDATE SET
      used = u.used + EXCLUDED.used,
      included_used = u.included_used + EXCLUDED.included_used,
      payg_used = u.payg_used + EXCLUDED.payg_used,
      period_end = EXCLUDED.period_end,
      updated_at = now()
    RETURNING used, included_used, payg_used
  ), key_usage AS (
    INSERT INTO metering_key_usage AS k (key_id, period_start, included_used)
    SELECT $2, $3, $6 WHERE $6 > 0
    ON CONFLICT (key_id, period_start) DO UPDATE SET included_used = k.included_used + EXCLUDED.included_used
  )
  SELECT (SELECT count(*) FROM ins)::int AS inserted,
         (SELECT coalesce(sum(charge_millicents), 0) FROM ins)::text AS charged,
         usage.used, usage.included_used, usage.payg_used,
         set_config('synchronous_commit', durability.reset_val, true) AS synchronous_commit
    FROM usage, pg_settings AS durability
   WHERE durability.name = 'synchronous_commit'`;

export type { AccountRow };

export interface UsageColumns {
  used: number | null;
  included_used: number | null;
  payg_used: number | null;
}

export interface UsageAndNewRow extends UsageColumns {
  key_found: boolean;
  key_allowance: number | null;
  key_included_used: number | null;
  new_ids: string[];
}

export interface RecordedRow extends UsageColumns {
  inserted: number;
  charged: string;
}

export function toAccountBilling(row: AccountRow): AccountBilling {
  return accountBilling(rowToAccount(row));
}

export function toUsage(row: UsageColumns): PeriodUsage {
  return {
    used: row.used ?? 0,
    includedUsed: row.included_used ?? 0,
    paygUsed: row.payg_used ?? 0,
  };
}

/** bigint columns arrive as strings; money must never be rounded silently. */
export function toSafeInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`not a safe integer: ${text}`);
  return n;
}
