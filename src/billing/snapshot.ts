import type { Period } from './period';
import {
  accountAllowance,
  prepaidCredits,
  type AccountLimitSettings,
  type BillingModel,
  type PlanId,
  type PlanLimits,
} from './plans';

/**
 * An account's usage in its current period, as the usage headers (contract §18.3) and the `usage`
 * CLI show it, already shaped per billing model (contract §18.4), so
 * that both print the same numbers.
 */
export interface UsageSnapshot {
  /** The plan for plan-billed accounts; null for legacy models (no X-Service-Plan, contract §18.4). */
  planId: PlanId | null;
  billingModel: BillingModel;
  periodStart: Date;
  /** Exclusive. */
  periodEnd: Date;
  /** Included opportunities per period (legacy_wallet: 0). */
  allowance: number;
  /** Unique opportunities delivered this period, included and prepaid (contract §18.3). */
  used: number;
  includedUsed: number;
  paygUsed: number;
  /** Included allowance left, never negative (contract §18.3). */
  remaining: number;
  /** legacy_entitlement: 0 (contract §18.4). */
  balanceMillicents: number;
  /** floor(balance / 400) (contract §18.3). */
  prepaidCredits: number;
  /** Enterprise without an allowance anywhere: nothing is included (see plans.accountAllowance). */
  allowanceUnset: boolean;
}

/** What the ledger's per-period usage row holds (migration 004); zeros when there is none yet. */
export interface PeriodUsage {
  used: number;
  includedUsed: number;
  paygUsed: number;
}

export const NO_USAGE: PeriodUsage = { used: 0, includedUsed: 0, paygUsed: 0 };

/** The billing columns of an account with its plan, as the meter loads them. */
export interface AccountBilling {
  accountId: string;
  plan: PlanLimits;
  settings: AccountLimitSettings;
  balanceMillicents: number;
  storedPeriodStart: Date | null;
  storedPeriodEnd: Date | null;
}

export function buildSnapshot(
  account: AccountBilling,
  period: Period,
  usage: PeriodUsage,
): UsageSnapshot {
  const model = account.settings.billingModel;
  const { allowance, unset } = accountAllowance(account.plan, account.settings);
  const balance = model === 'legacy_entitlement' ? 0 : account.balanceMillicents;
  return {
    planId: model === 'plan' ? account.plan.id : null,
    billingModel: model,
    periodStart: period.start,
    periodEnd: period.end,
    allowance,
    used: usage.used,
    includedUsed: usage.includedUsed,
    paygUsed: usage.paygUsed,
    remaining: Math.max(0, allowance - usage.includedUsed),
    balanceMillicents: balance,
    prepaidCredits: prepaidCredits(balance),
    allowanceUnset: unset,
  };
}
