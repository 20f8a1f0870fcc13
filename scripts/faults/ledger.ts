import type { Pool } from 'pg';

// The ledger invariants every fault must leave holding, checked in SQL.

export const INVARIANTS: Record<string, string> = {
  // A charge exists only with its delivery rows: each wallet charge equals the charges of the
  // deliveries its request recorded.
  charges_without_matching_deliveries: `
    SELECT count(*) FROM wallet_ledger w
     WHERE w.kind = 'charge'
       AND -w.amount_millicents IS DISTINCT FROM (
         SELECT sum(d.charge_millicents) FROM metering_deliveries d
          WHERE d.account_id = w.account_id AND d.request_id = w.request_id)`,
  // No delivery was charged without a wallet entry.
  charged_deliveries_without_wallet_entry: `
    SELECT count(*) FROM (
      SELECT account_id, request_id FROM metering_deliveries WHERE charge_millicents > 0
       GROUP BY account_id, request_id) d
     WHERE NOT EXISTS (SELECT 1 FROM wallet_ledger w WHERE w.kind = 'charge'
                         AND w.account_id = d.account_id AND w.request_id = d.request_id)`,
  negative_wallets: `SELECT count(*) FROM accounts WHERE balance_millicents < 0`,
  // The balance is what the wallet ledger says it is.
  balances_off_ledger: `
    SELECT count(*) FROM accounts a
     WHERE a.balance_millicents <> coalesce(
       (SELECT sum(amount_millicents) FROM wallet_ledger w WHERE w.account_id = a.id), 0)`,
  // used = distinct opportunities delivered to the account in the period.
  usage_not_distinct_deliveries: `
    SELECT count(*) FROM metering_usage u
     WHERE u.used <> (SELECT count(DISTINCT d.opportunity_id) FROM metering_deliveries d
                       WHERE d.account_id = u.account_id AND d.period_start = u.period_start)`,
};

export async function checkLedger(pool: Pool): Promise<{
  holds: boolean;
  violations: Record<string, number>;
  deliveries: number;
  charged: number;
}> {
  const violations: Record<string, number> = {};
  for (const [name, sql] of Object.entries(INVARIANTS)) {
    const { rows } = await pool.query<{ count: string }>(sql);
    violations[name] = Number(rows[0]?.count ?? 0);
  }
  const totals = await pool.query<{ deliveries: string; charged: string }>(
    `SELECT (SELECT count(*) FROM metering_deliveries) AS deliveries,
            (SELECT coalesce(sum(charge_millicents), 0) FROM metering_deliveries) AS charged`,
  );
  return {
    holds: Object.values(violations).every((v) => v === 0),
    violations,
    deliveries: Number(totals.rows[0]?.deliveries ?? 0),
    charged: Number(totals.rows[0]?.charged ?? 0),
  };
}
