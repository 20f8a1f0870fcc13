// The account model (contract §15): ONE shape for the key lookup, the meter, the CLI
// and the usage envelope. The store maps its rows to it (store/account-repo.ts); the limit rules
// over it live in billing/account-limits.ts.

export const PLAN_IDS = ['free', 'builder', 'growth', 'enterprise'] as const;
export const BILLING_MODELS = ['plan', 'legacy_entitlement', 'legacy_wallet'] as const;
export const ACCOUNT_STATUSES = ['active', 'disabled', 'suspended', 'pending', 'expired'] as const;
export type PlanId = (typeof PLAN_IDS)[number];
export type BillingModel = (typeof BILLING_MODELS)[number];
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export type PeriodKind = 'calendar_month' | 'billing_period';

/**
 * contract §15.2: `pending` and `expired` are states of a legacy entitlement (403
 * plan_access_pending / plan_access_expired, "the entitlement of this account is not active
 * yet"); a plan-billed or wallet account has none, so it is never put in them.
 */
export function statusFitsModel(status: AccountStatus, model: BillingModel): boolean {
  return (status !== 'pending' && status !== 'expired') || model === 'legacy_entitlement';
}

export const STATUS_MODEL_MISMATCH =
  'status pending and expired belong to billing model legacy_entitlement';

export interface Plan {
  id: PlanId;
  label: string;
  /** Null: account-specific (enterprise), see allowance_override. */
  opportunity_allowance: number | null;
  period_kind: PeriodKind;
  requests_per_second: number;
  max_page_size: number;
}

export interface Account {
  id: string;
  name: string | null;
  plan: Plan;
  billing_model: BillingModel;
  status: AccountStatus;
  /** Integer millicents (bigint column); safe as a JS number up to 2^53. */
  balance_millicents: number;
  /** For legacy_entitlement this is the fixed allowance (contract §15.3). */
  allowance_override: number | null;
  rps_override: number | null;
  page_size_override: number | null;
  period_start: Date | null;
  period_end: Date | null;
  created_at: Date;
}

/** An account's limits before any per-key limit (billing/account-limits.ts computes them). */
export interface AccountLimits {
  /** Null: none is set (enterprise without override). */
  allowance: number | null;
  rps: number;
  pageSize: number;
}
