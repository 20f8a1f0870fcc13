// Effective limits of an account and a key (contract §15.1, §15.4). Pure: the meter, the rate
// limiter and the page-size check feed them the rows they loaded themselves.
import { MAX_PAGE_SIZE } from '../domain/filters';

import type { BillingModel, PeriodKind, PlanId } from '../domain/account';

export {
  BILLING_MODELS,
  PLAN_IDS,
  type BillingModel,
  type PeriodKind,
  type PlanId,
} from '../domain/account';

/** contract §16.3: 0.004 USD per new opportunity beyond the included allowance. */
export const PRICE_PER_OPPORTUNITY_MILLICENTS = 400;

/** One row of the plans table (migration 003). */
export interface PlanLimits {
  id: PlanId;
  /** Null = account-specific (enterprise). */
  opportunityAllowance: number | null;
  periodKind: PeriodKind;
  requestsPerSecond: number;
  maxPageSize: number;
}

/** The limit columns of an accounts row (migration 003). */
export interface AccountLimitSettings {
  billingModel: BillingModel;
  allowanceOverride: number | null;
  rpsOverride: number | null;
  pageSizeOverride: number | null;
}

/** The limit columns of an api_keys row: a key may only be stricter (contract §15.4). */
export interface KeyLimitSettings {
  allowance: number | null;
  rps: number | null;
}

export interface AllowanceDecision {
  /** Included opportunities per period for the account (0 when none is included). */
  allowance: number;
  /**
   * True for an enterprise account whose plan leaves the allowance to the account and that has no
   * override: we include nothing (everything new is prepaid) rather than guess a number, so a
   * misconfigured account costs its owner credit instead of giving data away (fail closed).
   */
  unset: boolean;
}

/**
 * The account's included allowance per period, by billing model (contract §15.3):
 * plan and legacy_entitlement: the override, else the plan's; legacy_wallet: none, every new
 * opportunity is charged.
 */
export function accountAllowance(
  plan: PlanLimits,
  account: AccountLimitSettings,
): AllowanceDecision {
  if (account.billingModel === 'legacy_wallet') return { allowance: 0, unset: false };
  const configured = account.allowanceOverride ?? plan.opportunityAllowance;
  return configured === null
    ? { allowance: 0, unset: true }
    : { allowance: configured, unset: false };
}

/** The account's requests per second: the override, else the plan's (contract §19.1). */
export function accountRps(plan: PlanLimits, account: AccountLimitSettings): number {
  return account.rpsOverride ?? plan.requestsPerSecond;
}

/** The requests per second a request is held to: the stricter of key and account (contract §15.4). */
export function effectiveRps(accountLimit: number, key: KeyLimitSettings): number {
  return key.rps === null ? accountLimit : Math.min(accountLimit, key.rps);
}

/** The largest `limit` a list request may ask for (contract §6.6, §15.1). */
export function effectivePageSize(plan: PlanLimits, account: AccountLimitSettings): number {
  return Math.min(MAX_PAGE_SIZE, account.pageSizeOverride ?? plan.maxPageSize);
}

/**
 * How many of a request's new opportunities the included allowance covers: both the account's and
 * the key's allowance apply (contract §15.4), each net of what was already included this period.
 */
export function includedAvailable(input: {
  accountAllowance: number;
  accountIncludedUsed: number;
  keyAllowance: number | null;
  keyIncludedUsed: number;
}): number {
  const account = Math.max(0, input.accountAllowance - input.accountIncludedUsed);
  if (input.keyAllowance === null) return account;
  return Math.min(account, Math.max(0, input.keyAllowance - input.keyIncludedUsed));
}

/** contract §18.3: further opportunities the prepaid balance can buy. */
export function prepaidCredits(balanceMillicents: number): number {
  return Math.floor(Math.max(0, balanceMillicents) / PRICE_PER_OPPORTUNITY_MILLICENTS);
}
