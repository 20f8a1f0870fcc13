import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { AppDeps } from '../../src/service/context';
import { createAccount, type AccountInput } from '../../src/store/account-repo';
import { createApiKey, type CreatedApiKey } from '../../src/store/api-key-repo';

// The suite's one set of factories: accounts, keys and plans for every world. Records are made by
// fixtures.ts (makeRecord) and the oracle fixtures. The in-memory world's reader (fast/support)
// takes the same defaults, so a test reads the same account in both worlds.

/**
 * Room to work, for a test that is not about limits: 1000 requests a second (Free allows 2, and a
 * loaded machine would otherwise see 429s that no test asked for). A test about rate limits sets its
 * own `rps_override` (or `null`, the plan's rate) after the spread.
 */
export const ROOMY = { rps_override: 1000 } as const satisfies AccountInput;

/**
 * The read suites' reader: a Free account with room to work: ROOMY, pages of 100 (Free: 25) and a
 * large allowance (Free: 1000 a month).
 */
export const ROOMY_READER = {
  plan: 'free',
  ...ROOMY,
  allowance_override: 1_000_000,
  page_size_override: 100,
} as const satisfies AccountInput;

/** A reader's account id and the secret of its key. */
export interface Reader {
  accountId: string;
  key: string;
}

/** An account (active Free unless told) with one key, through the account repository. */
export async function accountWithKey(
  deps: Pick<AppDeps, 'pool'>,
  input: AccountInput = {},
): Promise<{ accountId: string; key: CreatedApiKey }> {
  const account = await createAccount(deps.pool, input);
  const key = await createApiKey(deps.pool, { accountId: account.id, label: 'test' });
  return { accountId: account.id, key };
}

/** The key of a ROOMY account (its plan and the rest as told). */
export async function roomyKey(
  deps: Pick<AppDeps, 'pool'>,
  input: AccountInput = {},
): Promise<string> {
  return (await accountWithKey(deps, { ...ROOMY, ...input })).key.key;
}

/** A ROOMY_READER account with a key; `account` overrides any of the defaults. */
export async function newReader(
  deps: Pick<AppDeps, 'pool'>,
  account: AccountInput = {},
): Promise<Reader> {
  const created = await createAccount(deps.pool, { ...ROOMY_READER, ...account });
  const { key } = await createApiKey(deps.pool, { accountId: created.id });
  return { accountId: created.id, key };
}

/** The columns of an account row that the ledger tests set directly. */
export interface AccountRow {
  planId?: 'free' | 'builder' | 'growth' | 'enterprise';
  billingModel?: 'plan' | 'legacy_entitlement' | 'legacy_wallet';
  balanceMillicents?: number;
  allowanceOverride?: number | null;
  rpsOverride?: number | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
}

/**
 * An account row in plain SQL, for the ledger tests: no repository validation and no opening
 * wallet entry, so the ledger holds only what the test under way wrote.
 */
export async function insertAccountRow(pool: Pool, fixture: AccountRow = {}): Promise<string> {
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

/** A key row in plain SQL (with optional per-key limits) for an account of insertAccountRow. */
export async function insertKeyRow(
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

export function firstRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('expected a row');
  return row;
}
