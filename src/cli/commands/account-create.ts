import type { Pool } from 'pg';
import { accountLimits } from '../../billing/account-limits';
import { openPostgres } from '../../bootstrap';
import {
  ACCOUNT_STATUSES,
  AccountInputError,
  BILLING_MODELS,
  createAccount,
  PLAN_IDS,
  type Account,
  type AccountPatch,
} from '../../store/account-repo';
import { migrate } from '../../store/migrate';
import { intFlag, stringFlag, UsageError, type Command, type ParsedArgs } from '../command';
import { UNSET_ALLOWANCE_NOTE } from './usage';
import { parseDateParam } from '../../domain/filters/dates';

// contract §22.9: `account create` and `account update` share their flags; the parsing lives here.

export const ACCOUNT_FLAGS = [
  'plan',
  'billing-model',
  'balance-millicents',
  'allowance',
  'rps',
  'page-size',
  'status',
  'period-start',
  'period-end',
  'name',
] as const;

/**
 * `none` clears an optional value on update (an override, the period, the name); a name of `none`
 * is no name on create too, so that a name `update` could never set is never stored.
 */
const CLEAR = 'none';

function oneOf<T extends string>(
  args: ParsedArgs,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw new UsageError(`--${name} must be one of ${allowed.join('|')}`);
  }
  return v as T;
}

function clearableInt(
  args: ParsedArgs,
  name: string,
  clearable: boolean,
): number | null | undefined {
  if (clearable && args.flags.get(name) === CLEAR) return null;
  return intFlag(args, name);
}

function dateFlag(args: ParsedArgs, name: string, clearable: boolean): Date | null | undefined {
  const v = stringFlag(args, name);
  if (v === undefined) return undefined;
  if (clearable && v === CLEAR) return null;
  // The API's rule for dates (contract §6.5), not Date's: `1`, `March 1` and 2026-02-30 were taken
  // (as 2001, 2026-03-01 and 2026-03-02), and a time without a zone in the operator's own zone.
  const at = parseDateParam(v, 'down');
  if (at === undefined)
    throw new UsageError(
      `--${name} must be an ISO 8601 date-time with Z or an offset, or a date YYYY-MM-DD (00:00Z)`,
    );
  return new Date(at);
}

/** The account flags as a patch; `clearable` (update) accepts `none` to clear a value. */
export function accountFlags(args: ParsedArgs, clearable: boolean): AccountPatch {
  const name = stringFlag(args, 'name');
  return {
    plan: oneOf(args, 'plan', PLAN_IDS),
    billing_model: oneOf(args, 'billing-model', BILLING_MODELS),
    status: oneOf(args, 'status', ACCOUNT_STATUSES),
    balance_millicents: intFlag(args, 'balance-millicents'),
    // For legacy_entitlement this is THE fixed allowance (contract §15.3).
    allowance_override: clearableInt(args, 'allowance', clearable),
    rps_override: clearableInt(args, 'rps', clearable),
    page_size_override: clearableInt(args, 'page-size', clearable),
    period_start: dateFlag(args, 'period-start', clearable),
    period_end: dateFlag(args, 'period-end', clearable),
    // The store trims a name, so ` none` is `none` too.
    name: name?.trim() === CLEAR ? null : name,
  };
}

/** The flag each stored field is given by: the repositories' messages name fields. */
const FLAG_OF_FIELD: Record<string, string> = {
  plan: '--plan',
  billing_model: '--billing-model',
  status: '--status',
  balance_millicents: '--balance-millicents',
  allowance_override: '--allowance',
  rps_override: '--rps',
  page_size_override: '--page-size',
  period_start: '--period-start',
  period_end: '--period-end',
  name: '--name',
  label: '--label',
  allowance: '--allowance',
  rps: '--rps',
};

/**
 * A repository's message in the operator's words: the field it starts with (`page_size_override:
 * Too big`) and the period's fields, wherever they stand, become the flags that set them.
 */
export function inFlags(message: string): string {
  return message
    .replace(/^([a-z_]+)(?=:| must| is )/, (field) => FLAG_OF_FIELD[field] ?? field)
    .replace(/\bperiod_(start|end)\b/g, (field) => FLAG_OF_FIELD[field] ?? field);
}

/**
 * A stored period that the meter does not apply: a plan-billed account on a calendar-month plan
 * (Free) counts UTC calendar months whatever is stored (contract §15.5, billing/period.ts).
 * Said rather than refused: the period applies once the account moves to a paid plan.
 */
export const IGNORED_PERIOD_NOTE =
  'the Free plan counts UTC calendar months: this period applies only after a change to a paid plan or legacy billing';

/**
 * Settings the account's billing model does not apply (contract §15.3), said as the period is: a
 * legacy entitlement has no prepaid credit (a balance or top-up is stored, never spent), and a
 * legacy wallet includes nothing (an allowance is stored, never applied). Both apply once the
 * account moves to a billing model that uses them.
 */
export const UNSPENT_BALANCE_NOTE =
  'a legacy_entitlement account has no prepaid credit: this balance is spent only after a change to plan or legacy_wallet billing';
export const UNUSED_ALLOWANCE_NOTE =
  'a legacy_wallet account includes nothing: this allowance applies only after a change to plan or legacy_entitlement billing';

/** The JSON an account command prints: numbers as numbers, dates ISO. */
export function accountJson(account: Account): Record<string, unknown> {
  const limits = accountLimits(account);
  return {
    ok: true,
    id: account.id,
    name: account.name,
    plan: account.plan.id,
    billing_model: account.billing_model,
    status: account.status,
    balance_millicents: account.balance_millicents,
    allowance_override: account.allowance_override,
    rps_override: account.rps_override,
    page_size_override: account.page_size_override,
    period_start: account.period_start?.toISOString() ?? null,
    period_end: account.period_end?.toISOString() ?? null,
    created_at: account.created_at.toISOString(),
    ...(account.period_start !== null &&
    account.billing_model === 'plan' &&
    account.plan.period_kind === 'calendar_month'
      ? { period_note: IGNORED_PERIOD_NOTE }
      : {}),
    ...(account.billing_model === 'legacy_entitlement' && account.balance_millicents > 0
      ? { balance_note: UNSPENT_BALANCE_NOTE }
      : {}),
    ...(account.billing_model === 'legacy_wallet' && account.allowance_override !== null
      ? { allowance_note: UNUSED_ALLOWANCE_NOTE }
      : {}),
    // What the meter applies: no allowance set includes nothing (as `usage` prints it).
    limits: {
      allowance: limits.allowance ?? 0,
      requests_per_second: limits.rps,
      max_page_size: limits.pageSize,
      ...(limits.allowance === null ? { allowance_note: UNSET_ALLOWANCE_NOTE } : {}),
    },
  };
}

/**
 * Account and key commands need Postgres only (bootstrap.openPostgres: no search engine started).
 * Migrates first, as every CLI command does. Invalid input is a usage error (exit status 2).
 */
export async function withPostgres<T>(fn: (pool: Pool) => Promise<T>): Promise<T> {
  const { pool } = await openPostgres({ createDatabase: 'local-only' });
  try {
    await migrate(pool);
    return await fn(pool);
  } catch (err) {
    if (err instanceof AccountInputError) throw new UsageError(inFlags(err.message));
    throw err;
  } finally {
    await pool.end();
  }
}

export const accountCreateCommand: Command = {
  name: 'account create',
  accepts: { flags: ACCOUNT_FLAGS, positional: [0, 0] },
  usage:
    'account create --plan free|builder|growth|enterprise [--billing-model plan|legacy_entitlement|legacy_wallet] [--balance-millicents N] [--allowance N] [--rps N] [--page-size N] [--status active|disabled|suspended|pending|expired] [--period-start ISO --period-end ISO] [--name TEXT]',
  async run(args) {
    // Without --plan an account starts on Free (contract §15.1).
    const input = accountFlags(args, false);
    return accountJson(await withPostgres((pool) => createAccount(pool, input)));
  },
};
