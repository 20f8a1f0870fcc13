import type { Period } from './period';
import {
  accountAllowance,
  includedAvailable,
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
  /**
   * Included opportunities per period (legacy_wallet: 0); for a key of its own lower allowance,
   * the stricter of key and account (contract §15.4, §18.4).
   */
  allowance: number;
  /** Unique opportunities delivered this period, included and prepaid (contract §18.3). */
  used: number;
  includedUsed: number;
  paygUsed: number;
  /**
   * Included allowance left, never negative (contract §18.3); for a key of its own allowance, what
   * the key may still be given included (plans.includedAvailable: the stricter of key and account).
   */
  remaining: number;
  /** legacy_entitlement: 0 (contract §18.4). */
  balanceMillicents: number;
  /** floor(balance / 400) (contract §18.3). */
  prepaidCredits: number;
  /** Enterprise without an allowance anywhere: nothing is included (see plans.accountAllowance). */
  allowanceUnset: boolean;
  /**
   * Set when `allowance` and `remaining` are one key's (its own allowance, contract §15.4): the
   * account's own figures beside them, so that a view of the whole account (a usage cache shared
   * by its keys) never shows one key's figures to another (accountView).
   */
  keyLimited: { keyId: string; accountAllowance: number; accountRemaining: number } | null;
}

/** A key's own allowance (null: none) and what it was given included this period (migration 004). */
export interface KeyUsage {
  keyId: string;
  allowance: number | null;
  includedUsed: number;
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

/**
 * The usage of an account, or, with `key`, as that key sees it: a key without an allowance of its
 * own sees the account's figures; one with sees the stricter limit and the stricter remaining, the
 * same `includedAvailable` that allocates its deliveries (so that the headers never say there is
 * allowance left when the next new opportunity would be charged, or refused).
 */
export function buildSnapshot(
  account: AccountBilling,
  period: Period,
  usage: PeriodUsage,
  key: KeyUsage | null = null,
): UsageSnapshot {
  const model = account.settings.billingModel;
  const { allowance, unset } = accountAllowance(account.plan, account.settings);
  const balance = model === 'legacy_entitlement' ? 0 : account.balanceMillicents;
  const remaining = Math.max(0, allowance - usage.includedUsed);
  const own = key?.allowance ?? null;
  const shown =
    key === null || own === null
      ? { allowance, remaining, keyLimited: null }
      : {
          allowance: Math.min(allowance, own),
          remaining: includedAvailable({
            accountAllowance: allowance,
            accountIncludedUsed: usage.includedUsed,
            keyAllowance: own,
            keyIncludedUsed: key.includedUsed,
          }),
          keyLimited: {
            keyId: key.keyId,
            accountAllowance: allowance,
            accountRemaining: remaining,
          },
        };
  return {
    planId: model === 'plan' ? account.plan.id : null,
    billingModel: model,
    periodStart: period.start,
    periodEnd: period.end,
    allowance: shown.allowance,
    used: usage.used,
    includedUsed: usage.includedUsed,
    paygUsed: usage.paygUsed,
    remaining: shown.remaining,
    balanceMillicents: balance,
    prepaidCredits: prepaidCredits(balance),
    allowanceUnset: unset,
    keyLimited: shown.keyLimited,
  };
}

/** The account's own figures of a snapshot, whichever key it was read for. */
export function accountView(snapshot: UsageSnapshot): UsageSnapshot {
  const limited = snapshot.keyLimited;
  if (limited === null) return snapshot;
  return {
    ...snapshot,
    allowance: limited.accountAllowance,
    remaining: limited.accountRemaining,
    keyLimited: null,
  };
}

/** Whose usage to read: an account, or an account as one of its keys sees it. */
export interface UsageSubject {
  accountId: string;
  keyId?: string;
}

/**
 * Where a usage read or cache keeps a subject's figures: the account id alone (the account's
 * figures) or with the key's (that key's view). A bare string is an account.
 */
export function usageKey(who: string | UsageSubject): string {
  if (typeof who === 'string') return who;
  return who.keyId === undefined ? who.accountId : `${who.accountId} ${who.keyId}`;
}
