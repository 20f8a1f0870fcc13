import type { Account, AccountLimits } from '../domain/account';
import {
  accountAllowance,
  accountRps,
  effectivePageSize,
  type AccountLimitSettings,
  type PlanLimits,
} from './plans';
import type { AccountBilling } from './snapshot';

// The account model (domain/account.ts) seen by the limit rules of billing/plans.ts: one
// conversion, used by the authenticator (once per request), the meter and the CLI.

export function planLimits(account: Account): PlanLimits {
  return {
    id: account.plan.id,
    opportunityAllowance: account.plan.opportunity_allowance,
    periodKind: account.plan.period_kind,
    requestsPerSecond: account.plan.requests_per_second,
    maxPageSize: account.plan.max_page_size,
  };
}

export function limitSettings(account: Account): AccountLimitSettings {
  return {
    billingModel: account.billing_model,
    allowanceOverride: account.allowance_override,
    rpsOverride: account.rps_override,
    pageSizeOverride: account.page_size_override,
  };
}

/**
 * The account-level limits before any per-key limit (contract §15.4: the stricter of key and account
 * applies, which is the caller's job). `allowance` null: none is set (enterprise without override).
 */
export function accountLimits(account: Account): AccountLimits {
  const plan = planLimits(account);
  const settings = limitSettings(account);
  const allowance = accountAllowance(plan, settings);
  return {
    allowance: allowance.unset ? null : allowance.allowance,
    rps: accountRps(plan, settings),
    pageSize: effectivePageSize(plan, settings),
  };
}

/** What the meter needs of an account. */
export function accountBilling(account: Account): AccountBilling {
  return {
    accountId: account.id,
    plan: planLimits(account),
    settings: limitSettings(account),
    balanceMillicents: account.balance_millicents,
    storedPeriodStart: account.period_start,
    storedPeriodEnd: account.period_end,
  };
}
