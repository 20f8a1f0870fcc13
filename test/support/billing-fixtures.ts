import { randomUUID } from 'node:crypto';
import { ApiError } from '../../src/domain/errors';
import { firstRow } from './factories';
import type { Pool } from 'pg';

// Accounts, keys and ledger reads in plain SQL for the metering tests (the account repository is
// written separately; the ledger only needs the rows).

// The account and key rows come from the suite's factories (factories.ts), under the names these
// tests know them by.
export {
  insertAccountRow as createAccount,
  insertKeyRow as createKey,
  type AccountRow as AccountFixture,
} from './factories';

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

/** The ApiError a metering call rejects with (anything else is rethrown; a resolve fails). */
export async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  const err = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw err;
  return err;
}

/** The code of the ApiError a metering call rejects with. */
export const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  (await errorOf(promise)).code;
