import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';

// Accounts, keys and ledger reads in plain SQL for the metering tests (the account repository is
// written separately; the ledger only needs the rows).

export interface AccountFixture {
  planId?: 'free' | 'builder' | 'growth' | 'enterprise';
  billingModel?: 'plan' | 'legacy_entitlement' | 'legacy_wallet';
  balanceMillicents?: number;
  allowanceOverride?: number | null;
  rpsOverride?: number | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
}

export async function createAccount(pool: Pool, fixture: AccountFixture = {}): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO accounts (plan_id, billing_model, balance_millicents, allowance_override,
                           rps_override, period_start, period_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      fixture.planId ?? 'free',
      fixture.billingModel ?? 'plan',
      fixture.balanceMillicents ?? 0,
      fixture.allowanceOverride ?? null,
      fixture.rpsOverride ?? null,
      fixture.periodStart ?? null,
      fixture.periodEnd ?? null,
    ],
  );
  return firstRow(rows).id;
}

export async function createKey(
  pool: Pool,
  accountId: string,
  limits: { allowance?: number | null; rps?: number | null } = {},
): Promise<string> {
  const secret = `oppk_${randomBytes(24).toString('hex')}`;
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO api_keys (account_id, label, prefix, key_hash, allowance, rps)
     VALUES ($1, 'test', $2, $3, $4, $5) RETURNING id`,
    [accountId, secret.slice(0, 12), secret, limits.allowance ?? null, limits.rps ?? null],
  );
  return firstRow(rows).id;
}

export const opportunityIds = (n: number): string[] =>
  Array.from({ length: n }, () => randomUUID());

export interface LedgerState {
  balance: number;
  deliveries: number;
  deliveryCharges: number;
  /** The sum of the wallet ledger's charges, as a positive amount. */
  walletCharges: number;
  walletEntries: number;
  usage: { used: number; included: number; payg: number };
}

/** Everything the ledger holds for an account, summed over all periods. */
export async function ledgerState(pool: Pool, accountId: string): Promise<LedgerState> {
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT (SELECT balance_millicents FROM accounts WHERE id = $1)::text AS balance,
            (SELECT count(*) FROM metering_deliveries WHERE account_id = $1)::text AS deliveries,
            (SELECT coalesce(sum(charge_millicents), 0) FROM metering_deliveries
              WHERE account_id = $1)::text AS delivery_charges,
            (SELECT coalesce(-sum(amount_millicents), 0) FROM wallet_ledger
              WHERE account_id = $1 AND kind = 'charge')::text AS wallet_charges,
            (SELECT count(*) FROM wallet_ledger WHERE account_id = $1)::text AS wallet_entries,
            (SELECT coalesce(sum(used), 0) FROM metering_usage WHERE account_id = $1)::text AS used,
            (SELECT coalesce(sum(included_used), 0) FROM metering_usage
              WHERE account_id = $1)::text AS included,
            (SELECT coalesce(sum(payg_used), 0) FROM metering_usage
              WHERE account_id = $1)::text AS payg`,
    [accountId],
  );
  const r = firstRow(rows);
  const n = (name: string) => Number(r[name] ?? NaN);
  return {
    balance: n('balance'),
    deliveries: n('deliveries'),
    deliveryCharges: n('delivery_charges'),
    walletCharges: n('wallet_charges'),
    walletEntries: n('wallet_entries'),
    usage: { used: n('used'), included: n('included'), payg: n('payg') },
  };
}

function firstRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('expected a row');
  return row;
}
