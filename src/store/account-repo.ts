import type { Pool, PoolClient } from 'pg';
import { z } from 'zod';
import {
  ACCOUNT_STATUSES,
  BILLING_MODELS,
  PLAN_IDS,
  STATUS_MODEL_MISMATCH,
  statusFitsModel,
  type Account,
  type AccountStatus,
  type BillingModel,
  type PeriodKind,
  type PlanId,
} from '../domain/account';
import { isUuid } from '../domain/ids';
import { withTransaction } from './db';

// Accounts (contract §15) over the tables of migrations/003, mapped to the one account model of
// domain/account.ts. Their limits are a billing rule: billing/account-limits.ts.

export { ACCOUNT_STATUSES, type Account, type AccountStatus };
export type { Plan } from '../domain/account';

export class AccountInputError extends Error {}

/**
 * A well-formed account id that names no account: not a usage error (exit status 1, as every
 * command that reads an account answers it), unlike malformed input (AccountInputError, 2).
 */
export class UnknownAccountError extends Error {}

const count = z.number().int().min(0).max(2_147_483_647);
const AccountPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).nullable().optional(),
  plan: z.enum(PLAN_IDS).optional(),
  billing_model: z.enum(BILLING_MODELS).optional(),
  status: z.enum(ACCOUNT_STATUSES).optional(),
  balance_millicents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  allowance_override: count.nullable().optional(),
  rps_override: count.min(1).nullable().optional(),
  // Overall maximum page size is 100 (contract §6.6, §15.1).
  page_size_override: z.number().int().min(1).max(100).nullable().optional(),
  period_start: z.date().nullable().optional(),
  period_end: z.date().nullable().optional(),
});

export type AccountPatch = z.input<typeof AccountPatchSchema>;
/** Everything is optional: a new account starts on Free, plan-billed and active (contract §15.1). */
export type AccountInput = AccountPatch;

function validate(input: AccountPatch): AccountPatch {
  const parsed = AccountPatchSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AccountInputError(`${issue?.path.join('.') ?? 'input'}: ${issue?.message ?? ''}`);
  }
  const { period_start: start, period_end: end } = parsed.data;
  // A billing period is given whole or cleared whole (migration 003's CHECKs, contract §15.5).
  if ((start === undefined) !== (end === undefined) || (start === null) !== (end === null)) {
    throw new AccountInputError('period_start and period_end must be given together');
  }
  if (start instanceof Date && end instanceof Date) {
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
      throw new AccountInputError('period_start and period_end must be valid dates');
    }
    if (start >= end) throw new AccountInputError('period_start must be before period_end');
  }
  return parsed.data;
}

/**
 * The ONE select list of an account (alias `a`), shared by the key lookup (api-key-repo) and the
 * meter (billing/ledger-sql.ts). The plan is read by a scalar subquery, not a join: under
 * SELECT ... FOR UPDATE, a row that was updated while we waited for its lock is re-checked against
 * the new version, and a joined plans row would be the old one (a plan change would drop the row);
 * a subquery is re-evaluated.
 */
export const ACCOUNT_COLUMNS = `
  a.id AS account_id, a.name AS account_name, a.billing_model, a.status,
  a.balance_millicents::text AS balance_millicents, a.allowance_override, a.rps_override,
  a.page_size_override, a.period_start, a.period_end, a.created_at AS account_created_at,
  (SELECT json_build_object('id', p.id, 'label', p.label, 'allowance', p.opportunity_allowance,
                            'period_kind', p.period_kind, 'rps', p.requests_per_second,
                            'page_size', p.max_page_size)
     FROM plans p WHERE p.id = a.plan_id) AS plan`;

export interface AccountRow {
  account_id: string;
  account_name: string | null;
  billing_model: BillingModel;
  status: AccountStatus;
  balance_millicents: string;
  allowance_override: number | null;
  rps_override: number | null;
  page_size_override: number | null;
  period_start: Date | null;
  period_end: Date | null;
  account_created_at: Date;
  plan: {
    id: PlanId;
    label: string;
    allowance: number | null;
    period_kind: PeriodKind;
    rps: number;
    page_size: number;
  };
}

export function rowToAccount(row: AccountRow): Account {
  const balance = Number(row.balance_millicents);
  if (!Number.isSafeInteger(balance))
    throw new Error(`account ${row.account_id}: balance overflow`);
  return {
    id: row.account_id,
    name: row.account_name,
    plan: {
      id: row.plan.id,
      label: row.plan.label,
      opportunity_allowance: row.plan.allowance,
      period_kind: row.plan.period_kind,
      requests_per_second: row.plan.rps,
      max_page_size: row.plan.page_size,
    },
    billing_model: row.billing_model,
    status: row.status,
    balance_millicents: balance,
    allowance_override: row.allowance_override,
    rps_override: row.rps_override,
    page_size_override: row.page_size_override,
    period_start: row.period_start,
    period_end: row.period_end,
    created_at: row.account_created_at,
  };
}

export { isUuid };
export { BILLING_MODELS, PLAN_IDS, type BillingModel, type PlanId };

export async function getAccount(pool: Pool, id: string): Promise<Account | null> {
  if (!isUuid(id)) return null;
  const { rows } = await pool.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1`,
    [id],
  );
  return rows[0] ? rowToAccount(rows[0]) : null;
}

/** Whether the database holds any account yet (the local demo account's condition). */
export async function anyAccountExists(pool: Pool): Promise<boolean> {
  const { rows } = await pool.query<{ any: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM accounts) AS any',
  );
  return rows[0]?.any === true;
}

// Input field → column. `plan` is the only renamed one.
const COLUMN: Record<keyof AccountPatch, string> = {
  name: 'name',
  plan: 'plan_id',
  billing_model: 'billing_model',
  status: 'status',
  balance_millicents: 'balance_millicents',
  allowance_override: 'allowance_override',
  rps_override: 'rps_override',
  page_size_override: 'page_size_override',
  period_start: 'period_start',
  period_end: 'period_end',
};

function assignments(patch: AccountPatch): { columns: string[]; values: unknown[] } {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const field of Object.keys(COLUMN) as (keyof AccountPatch)[]) {
    const value = patch[field];
    if (value === undefined) continue;
    columns.push(COLUMN[field]);
    values.push(value);
  }
  return { columns, values };
}

export async function createAccount(pool: Pool, input: AccountInput = {}): Promise<Account> {
  const valid = validate(input);
  if (!statusFitsModel(valid.status ?? 'active', valid.billing_model ?? 'plan')) {
    throw new AccountInputError(STATUS_MODEL_MISMATCH);
  }
  const { columns, values } = assignments(valid);
  const placeholders = values.map((_, i) => `$${i + 1}`).join(', ');
  const sql = columns.length
    ? `INSERT INTO accounts (${columns.join(', ')}) VALUES (${placeholders}) RETURNING id, balance_millicents`
    : 'INSERT INTO accounts DEFAULT VALUES RETURNING id, balance_millicents';
  const id = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ id: string; balance_millicents: string }>(sql, values);
    const row = rows[0];
    if (!row) throw new Error('account insert returned no row');
    await recordBalanceChange(client, row.id, 0, Number(row.balance_millicents));
    return row.id;
  });
  const account = await getAccount(pool, id);
  if (!account) throw new Error('account insert returned no row');
  return account;
}

/**
 * Applies the fields present in `patch`; null clears an override. Null when there is no such id.
 * A balance change takes the account's row lock (the meter's lock, so it never races a delivery)
 * and is written to the wallet ledger, which keeps the wallet auditable.
 */
export async function updateAccount(
  pool: Pool,
  id: string,
  patch: AccountPatch,
): Promise<Account | null> {
  if (!isUuid(id)) return null;
  const { columns, values } = assignments(validate(patch));
  if (columns.length) {
    const set = columns.map((c, i) => `${c} = $${i + 2}`).join(', ');
    const found = await withTransaction(pool, async (client) => {
      const before = await client.query<{ balance_millicents: string }>(
        'SELECT balance_millicents FROM accounts WHERE id = $1 FOR UPDATE',
        [id],
      );
      const previous = before.rows[0];
      if (!previous) return false;
      const after = await client.query<{
        balance_millicents: string;
        status: AccountStatus;
        billing_model: BillingModel;
      }>(
        `UPDATE accounts SET ${set}, updated_at = now() WHERE id = $1
         RETURNING balance_millicents, status, billing_model`,
        [id, ...values],
      );
      // The combination as it stands after the patch (either half may come from the row): thrown
      // inside the transaction, so nothing of the patch is kept.
      const row = after.rows[0];
      if (row && !statusFitsModel(row.status, row.billing_model)) {
        throw new AccountInputError(STATUS_MODEL_MISMATCH);
      }
      await recordBalanceChange(
        client,
        id,
        Number(previous.balance_millicents),
        Number(after.rows[0]?.balance_millicents ?? previous.balance_millicents),
      );
      return true;
    });
    if (!found) return null;
  }
  return getAccount(pool, id);
}

/**
 * Adds `millicents` of purchased credit to the balance in one statement under the account's row
 * lock (the meter's), written to the wallet ledger (contract §16.3: credit does not expire). Unlike
 * `balance_millicents` on update, which sets the balance, a top-up cannot undo a charge that landed
 * between an operator's reading the balance and writing it. Null when there is no such account.
 */
export async function topUpAccount(
  pool: Pool,
  id: string,
  millicents: number,
): Promise<Account | null> {
  if (!Number.isSafeInteger(millicents) || millicents < 1) {
    throw new AccountInputError(
      `millicents must be a positive integer, at most ${Number.MAX_SAFE_INTEGER}`,
    );
  }
  if (!isUuid(id)) return null;
  const found = await withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ after: string }>(
      `UPDATE accounts SET balance_millicents = balance_millicents + $2, updated_at = now()
        WHERE id = $1 RETURNING balance_millicents::text AS after`,
      [id, millicents],
    );
    const row = rows[0];
    if (!row) return false;
    // Balances are served as JSON numbers: past 2^53 - 1 they would no longer be exact.
    if (BigInt(row.after) > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new AccountInputError(`the balance would pass ${Number.MAX_SAFE_INTEGER} millicents`);
    }
    const after = Number(row.after);
    await recordBalanceChange(client, id, after - millicents, after);
    return true;
  });
  return found ? getAccount(pool, id) : null;
}

async function recordBalanceChange(
  client: PoolClient,
  accountId: string,
  from: number,
  to: number,
) {
  if (from === to) return;
  await client.query(
    `INSERT INTO wallet_ledger (account_id, kind, amount_millicents, balance_after)
     VALUES ($1, $2, $3, $4)`,
    [accountId, to > from ? 'credit' : 'adjustment', to - from, to],
  );
}
