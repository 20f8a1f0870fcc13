import type { Pool } from 'pg';

// The whole ledger of a test database in one SQL read: delivery rows, usage
// counters, wallet entries and balances as digests and sums, and the spent request ids as a set,
// so that a request's effect on it can be compared exactly before and after.

export interface LedgerSnapshot {
  deliveries: number;
  /** md5 over every row of each table, so that any change to any row shows. */
  digests: {
    deliveries: string;
    usage: string;
    keyUsage: string;
    wallet: string;
    balances: string;
  };
  used: number;
  balance: number;
  charged: number;
  requestIds: Set<string>;
}

const digest = (table: string, alias: string) =>
  `(SELECT coalesce(md5(string_agg(${alias}::text, '|' ORDER BY ${alias}::text)), '') FROM ${table} ${alias})`;

export async function ledgerSnapshot(pool: Pool): Promise<LedgerSnapshot> {
  const { rows } = await pool.query<Record<string, string | string[] | null>>(
    `SELECT (SELECT count(*) FROM metering_deliveries)::text AS deliveries,
            ${digest('metering_deliveries', 'd')} AS d_deliveries,
            ${digest('metering_usage', 'u')} AS d_usage,
            ${digest('metering_key_usage', 'k')} AS d_key_usage,
            ${digest('wallet_ledger', 'w')} AS d_wallet,
            (SELECT coalesce(md5(string_agg(id::text || ':' || balance_millicents, '|' ORDER BY id)), '')
               FROM accounts) AS d_balances,
            (SELECT coalesce(sum(used), 0) FROM metering_usage)::text AS used,
            (SELECT coalesce(sum(balance_millicents), 0) FROM accounts)::text AS balance,
            (SELECT coalesce(-sum(amount_millicents), 0) FROM wallet_ledger
              WHERE kind = 'charge')::text AS charged,
            (SELECT coalesce(array_agg(account_id::text || ' ' || request_id), '{}')
               FROM metering_request_ids) AS request_ids`,
  );
  const r = rows[0];
  if (!r) throw new Error('ledger snapshot: no row');
  const text = (name: string) => String(r[name] ?? '');
  return {
    deliveries: Number(text('deliveries')),
    digests: {
      deliveries: text('d_deliveries'),
      usage: text('d_usage'),
      keyUsage: text('d_key_usage'),
      wallet: text('d_wallet'),
      balances: text('d_balances'),
    },
    used: Number(text('used')),
    balance: Number(text('balance')),
    charged: Number(text('charged')),
    requestIds: new Set((r.request_ids as string[] | null) ?? []),
  };
}

/** Request ids spent between two snapshots, as `account request_id`. */
export function spentBetween(before: LedgerSnapshot, after: LedgerSnapshot): string[] {
  return [...after.requestIds].filter((id) => !before.requestIds.has(id));
}
