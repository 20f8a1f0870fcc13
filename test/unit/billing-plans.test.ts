import { allocate } from '../../src/billing/allocate';
import {
  accountAllowance,
  accountRps,
  effectivePageSize,
  effectiveRps,
  includedAvailable,
  prepaidCredits,
  type AccountLimitSettings,
  type PlanLimits,
} from '../../src/billing/plans';
import { ApiError } from '../../src/domain/errors';

const free: PlanLimits = {
  id: 'free',
  opportunityAllowance: 1000,
  periodKind: 'calendar_month',
  requestsPerSecond: 2,
  maxPageSize: 25,
};
const enterprise: PlanLimits = {
  id: 'enterprise',
  opportunityAllowance: null,
  periodKind: 'billing_period',
  requestsPerSecond: 50,
  maxPageSize: 100,
};
const settings = (over: Partial<AccountLimitSettings> = {}): AccountLimitSettings => ({
  billingModel: 'plan',
  allowanceOverride: null,
  rpsOverride: null,
  pageSizeOverride: null,
  ...over,
});

describe('effective limits (contract §15.4)', () => {
  it('takes the plan allowance unless the account overrides it', () => {
    expect(accountAllowance(free, settings())).toEqual({ allowance: 1000, unset: false });
    expect(accountAllowance(free, settings({ allowanceOverride: 10 }))).toEqual({
      allowance: 10,
      unset: false,
    });
    expect(accountAllowance(free, settings({ allowanceOverride: 0 })).allowance).toBe(0);
  });

  it('includes nothing for an enterprise account without any allowance, and says so', () => {
    expect(accountAllowance(enterprise, settings())).toEqual({ allowance: 0, unset: true });
    expect(accountAllowance(enterprise, settings({ allowanceOverride: 5000 }))).toEqual({
      allowance: 5000,
      unset: false,
    });
  });

  it('gives legacy wallets no included allowance and legacy entitlements their fixed one', () => {
    const wallet = settings({ billingModel: 'legacy_wallet', allowanceOverride: 99 });
    expect(accountAllowance(free, wallet)).toEqual({ allowance: 0, unset: false });
    const entitlement = settings({ billingModel: 'legacy_entitlement', allowanceOverride: 300 });
    expect(accountAllowance(free, entitlement).allowance).toBe(300);
  });

  it('applies rps overrides and the stricter of key and account', () => {
    expect(accountRps(free, settings())).toBe(2);
    expect(accountRps(free, settings({ rpsOverride: 7 }))).toBe(7);
    expect(effectiveRps(10, { allowance: null, rps: null })).toBe(10);
    expect(effectiveRps(10, { allowance: null, rps: 3 })).toBe(3);
    expect(effectiveRps(10, { allowance: null, rps: 30 })).toBe(10);
  });

  it('caps the page size at 100', () => {
    expect(effectivePageSize(free, settings())).toBe(25);
    expect(effectivePageSize(free, settings({ pageSizeOverride: 50 }))).toBe(50);
    expect(effectivePageSize({ ...enterprise, maxPageSize: 500 }, settings())).toBe(100);
  });

  it('nets the included allowance of both the account and the key', () => {
    const base = { accountAllowance: 10, accountIncludedUsed: 4, keyIncludedUsed: 0 };
    expect(includedAvailable({ ...base, keyAllowance: null })).toBe(6);
    expect(includedAvailable({ ...base, keyAllowance: 3 })).toBe(3);
    expect(includedAvailable({ ...base, keyAllowance: 3, keyIncludedUsed: 5 })).toBe(0);
    expect(includedAvailable({ ...base, accountIncludedUsed: 12, keyAllowance: null })).toBe(0);
  });

  it('counts prepaid credits as floor(balance / 400)', () => {
    expect(prepaidCredits(0)).toBe(0);
    expect(prepaidCredits(399)).toBe(0);
    expect(prepaidCredits(400)).toBe(1);
    expect(prepaidCredits(1000)).toBe(2);
  });
});

describe('allocation (contract §16.3, §16.4)', () => {
  const codeOf = (fn: () => unknown): string | undefined => {
    try {
      fn();
    } catch (err) {
      return err instanceof ApiError ? err.code : 'not an ApiError';
    }
    return undefined;
  };

  it('uses the included allowance first, then 400 millicents each', () => {
    expect(
      allocate({
        newCount: 5,
        billingModel: 'plan',
        includedAvailable: 3,
        balanceMillicents: 1000,
      }),
    ).toEqual({ included: 3, payg: 2, chargeMillicents: 800 });
    expect(
      allocate({ newCount: 2, billingModel: 'plan', includedAvailable: 3, balanceMillicents: 0 }),
    ).toEqual({ included: 2, payg: 0, chargeMillicents: 0 });
  });

  it('accepts a charge equal to the balance and refuses one a millicent over', () => {
    const input = { newCount: 3, billingModel: 'plan' as const, includedAvailable: 0 };
    expect(allocate({ ...input, balanceMillicents: 1200 }).chargeMillicents).toBe(1200);
    expect(codeOf(() => allocate({ ...input, balanceMillicents: 1199 }))).toBe(
      'insufficient_balance',
    );
  });

  it('charges a legacy wallet for everything new', () => {
    expect(
      allocate({
        newCount: 4,
        billingModel: 'legacy_wallet',
        includedAvailable: 0,
        balanceMillicents: 2000,
      }),
    ).toEqual({ included: 0, payg: 4, chargeMillicents: 1600 });
  });

  it('says one opportunity, or several, in its refusals', () => {
    const messageOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as Error).message;
      }
      return undefined;
    };
    const wallet = { billingModel: 'plan' as const, includedAvailable: 0, balanceMillicents: 0 };
    expect(messageOf(() => allocate({ ...wallet, newCount: 1 }))).toBe(
      'This delivery needs 400 millicents of prepaid credit for 1 new opportunity beyond the included allowance; the balance is 0.',
    );
    expect(messageOf(() => allocate({ ...wallet, newCount: 2 }))).toContain(
      'for 2 new opportunities beyond',
    );
    // A legacy wallet has no included allowance: its refusal does not speak of one.
    expect(
      messageOf(() => allocate({ ...wallet, billingModel: 'legacy_wallet', newCount: 2 })),
    ).toBe(
      'This delivery needs 800 millicents of prepaid credit for 2 new opportunities; the balance is 0.',
    );
    const legacy = { billingModel: 'legacy_entitlement' as const, balanceMillicents: 0 };
    expect(messageOf(() => allocate({ ...legacy, newCount: 1, includedAvailable: 0 }))).toBe(
      'This delivery needs 1 more opportunity than the entitlement has left this period.',
    );
  });

  it('refuses a legacy entitlement past its allowance, whatever its balance', () => {
    const input = { billingModel: 'legacy_entitlement' as const, balanceMillicents: 1_000_000 };
    expect(allocate({ ...input, newCount: 2, includedAvailable: 2 }).chargeMillicents).toBe(0);
    expect(codeOf(() => allocate({ ...input, newCount: 3, includedAvailable: 2 }))).toBe(
      'opportunity_quota_exhausted',
    );
  });
});
