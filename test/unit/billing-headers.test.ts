import { usageHeaders } from '../../src/billing/headers';
import type { DeliveryOutcome } from '../../src/billing/metering';
import type { PlanLimits } from '../../src/billing/plans';
import { rateLimitHeaders } from '../../src/billing/rate-limit';
import { buildSnapshot, NO_USAGE, type AccountBilling } from '../../src/billing/snapshot';

const period = { start: new Date('2025-03-01T00:00:00Z'), end: new Date('2025-04-01T00:00:00Z') };
const builder: PlanLimits = {
  id: 'builder',
  opportunityAllowance: 25000,
  periodKind: 'billing_period',
  requestsPerSecond: 10,
  maxPageSize: 100,
};
const account = (over: Partial<AccountBilling['settings']>, balance: number): AccountBilling => ({
  accountId: 'a',
  plan: builder,
  settings: {
    billingModel: 'plan',
    allowanceOverride: null,
    rpsOverride: null,
    pageSizeOverride: null,
    ...over,
  },
  balanceMillicents: balance,
  storedPeriodStart: null,
  storedPeriodEnd: null,
});
const direct = { marketplaceVerified: false };

describe('usage headers (contract §18)', () => {
  it('shows a delivery of 3 included and 2 prepaid: 800 charged, balance 200', () => {
    const usage = buildSnapshot(account({ allowanceOverride: 3 }, 200), period, {
      used: 5,
      includedUsed: 3,
      paygUsed: 2,
    });
    const outcome: DeliveryOutcome = {
      newCount: 5,
      includedNewCount: 3,
      paygNewCount: 2,
      chargeMillicents: 800,
      usage,
    };
    expect(usageHeaders(usage, outcome, direct)).toEqual({
      'X-Service-Balance-Millicents': '200',
      'X-Service-Usage-Charge-Millicents': '800',
      'X-Service-Prepaid-Opportunity-Credits': '0',
      'X-Service-Plan': 'builder',
      'X-Service-Opportunity-Limit': '3',
      'X-Service-Opportunity-Used': '5',
      'X-Service-Opportunity-Remaining': '0',
      'X-Service-New-Opportunity-Count': '5',
      'X-Service-Included-New-Opportunity-Count': '3',
      'X-Service-PAYG-New-Opportunity-Count': '2',
      'X-Service-Period-End': '2025-04-01T00:00:00.000Z',
    });
  });

  it('shows zeros for the response itself when nothing was delivered (counts, errors)', () => {
    const usage = buildSnapshot(account({}, 1999), period, {
      used: 7,
      includedUsed: 7,
      paygUsed: 0,
    });
    const h = usageHeaders(usage, null, direct);
    expect(h['X-Service-New-Opportunity-Count']).toBe('0');
    expect(h['X-Service-Usage-Charge-Millicents']).toBe('0');
    expect(h['X-Service-Opportunity-Remaining']).toBe('24993');
    expect(h['X-Service-Prepaid-Opportunity-Credits']).toBe('4');
  });

  it('never shows a negative remaining allowance', () => {
    const usage = buildSnapshot(account({ allowanceOverride: 2 }, 0), period, {
      used: 9,
      includedUsed: 5,
      paygUsed: 4,
    });
    expect(usageHeaders(usage, null, direct)['X-Service-Opportunity-Remaining']).toBe('0');
  });

  it('legacy wallet: no plan, Limit and Remaining 0, everything in PAYG', () => {
    const usage = buildSnapshot(account({ billingModel: 'legacy_wallet' }, 4000), period, {
      used: 2,
      includedUsed: 0,
      paygUsed: 2,
    });
    const outcome: DeliveryOutcome = {
      newCount: 2,
      includedNewCount: 0,
      paygNewCount: 2,
      chargeMillicents: 800,
      usage,
    };
    const h = usageHeaders(usage, outcome, direct);
    expect(h['X-Service-Plan']).toBeUndefined();
    expect(h['X-Service-Opportunity-Limit']).toBe('0');
    expect(h['X-Service-Opportunity-Remaining']).toBe('0');
    expect(h['X-Service-Opportunity-Used']).toBe('2');
    expect(h['X-Service-PAYG-New-Opportunity-Count']).toBe('2');
    expect(h['X-Service-Prepaid-Opportunity-Credits']).toBe('10');
  });

  it('legacy entitlement: Limit is the fixed allowance, balance and credits 0', () => {
    const usage = buildSnapshot(
      account({ billingModel: 'legacy_entitlement', allowanceOverride: 500 }, 99999),
      period,
      { used: 20, includedUsed: 20, paygUsed: 0 },
    );
    const h = usageHeaders(usage, null, direct);
    expect(h['X-Service-Plan']).toBeUndefined();
    expect(h['X-Service-Opportunity-Limit']).toBe('500');
    expect(h['X-Service-Opportunity-Remaining']).toBe('480');
    expect(h['X-Service-Balance-Millicents']).toBe('0');
    expect(h['X-Service-Prepaid-Opportunity-Credits']).toBe('0');
  });

  it('adds X-Marketplace-Billing only for a verified proxy request, 0 when nothing is new', () => {
    const usage = buildSnapshot(account({}, 0), period, NO_USAGE);
    const outcome: DeliveryOutcome = {
      newCount: 4,
      includedNewCount: 4,
      paygNewCount: 0,
      chargeMillicents: 0,
      usage,
    };
    expect(usageHeaders(usage, outcome, direct)['X-Marketplace-Billing']).toBeUndefined();
    const verified = { marketplaceVerified: true };
    expect(usageHeaders(usage, outcome, verified)['X-Marketplace-Billing']).toBe('Opportunities=4');
    expect(usageHeaders(usage, null, verified)['X-Marketplace-Billing']).toBe('Opportunities=0');
  });

  it('flags an enterprise account without allowance as including nothing', () => {
    const enterprise = {
      ...account({}, 0),
      plan: { ...builder, id: 'enterprise' as const, opportunityAllowance: null },
    };
    const usage = buildSnapshot(enterprise, period, NO_USAGE);
    expect(usage).toMatchObject({
      allowance: 0,
      remaining: 0,
      allowanceUnset: true,
      planId: 'enterprise',
    });
  });
});

describe('rate limit headers', () => {
  it('prints whole seconds, at least 1', () => {
    expect(rateLimitHeaders({ limit: 2, remaining: 1, resetSeconds: 1 })).toEqual({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '1',
      'X-RateLimit-Reset': '1',
    });
    expect(rateLimitHeaders({ limit: 2, remaining: -1, resetSeconds: 0.2 })).toEqual({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1',
    });
  });
});
