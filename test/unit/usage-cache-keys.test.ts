import { buildSnapshot, NO_USAGE, type AccountBilling } from '../../src/billing/snapshot';
import { UsageCache } from '../../src/billing/usage-cache';

// contract §15.4: a key of its own allowance sees its own figures; the usage cache shared by an
// account's keys (named by the account id) holds the account's, never one key's.

const account: AccountBilling = {
  accountId: 'acc',
  plan: {
    id: 'growth',
    opportunityAllowance: 100,
    periodKind: 'calendar_month',
    requestsPerSecond: 50,
    maxPageSize: 100,
  },
  settings: {
    billingModel: 'plan',
    allowanceOverride: null,
    rpsOverride: null,
    pageSizeOverride: null,
  },
  balanceMillicents: 0,
  storedPeriodStart: null,
  storedPeriodEnd: null,
};
const period = { start: new Date('2026-01-01'), end: new Date('2999-01-01') };
const usage = { ...NO_USAGE, used: 2, includedUsed: 2 };
const limited = buildSnapshot(account, period, usage, {
  keyId: 'k1',
  allowance: 2,
  includedUsed: 2,
});

it("builds a limited key's figures: the stricter limit and remaining", () => {
  expect(limited).toMatchObject({ allowance: 2, used: 2, remaining: 0 });
  expect(buildSnapshot(account, period, usage)).toMatchObject({ allowance: 100, remaining: 98 });
});

it("remembers the account's figures under the account, whichever key's it was given", async () => {
  const cache = new UsageCache();
  cache.remember('acc', limited);
  const seen = await cache.latest('acc', () => Promise.reject(new Error('no read')));
  expect(seen).toMatchObject({ allowance: 100, remaining: 98, keyLimited: null });
});

it("hands a fetched key's figures to its caller only; joiners get the account's", async () => {
  const cache = new UsageCache();
  const first = cache.latest('acc', () => Promise.resolve(limited));
  const joiner = cache.latest('acc', () => Promise.reject(new Error('no second read')));
  expect(await first).toMatchObject({ allowance: 2, remaining: 0 });
  expect(await joiner).toMatchObject({ allowance: 100, remaining: 98 });
});

// A key's snapshot refreshes its account's entry with the account's figures: the deliveries of a
// key of its own allowance never reached it, and a refusal of the account showed older figures.
it("keeps a key named with its account as its own entry, and refreshes the account's with the account's figures", async () => {
  const cache = new UsageCache();
  cache.remember({ accountId: 'acc', keyId: 'k1' }, limited);
  const noRead = () => Promise.reject(new Error('no read'));
  const own = await cache.latest({ accountId: 'acc', keyId: 'k1' }, noRead);
  expect(own).toMatchObject({ allowance: 2, remaining: 0 });
  expect(await cache.latest('acc', noRead)).toMatchObject({
    allowance: 100,
    used: 2,
    remaining: 98,
    keyLimited: null,
  });
  // Another key of the account has an entry of its own, never this key's figures.
  const read = jest.fn(() => Promise.resolve(buildSnapshot(account, period, usage)));
  await cache.latest({ accountId: 'acc', keyId: 'k2' }, read);
  expect(read).toHaveBeenCalledTimes(1);
});

// Protocol messages and refusals read entries at most a second old, as every account change takes
// effect (it was 10 s: a top-up showed on initialize 9 s late).
it('hands out an entry for a second, then reads again', async () => {
  let now = 1_000_000;
  const cache = new UsageCache(undefined, undefined, () => now);
  const read = jest.fn(() => Promise.resolve(buildSnapshot(account, period, usage)));
  await cache.fresh('acc', read);
  now += 999;
  await cache.fresh('acc', read);
  expect(read).toHaveBeenCalledTimes(1);
  now += 2;
  await cache.fresh('acc', read);
  expect(read).toHaveBeenCalledTimes(2);
});
