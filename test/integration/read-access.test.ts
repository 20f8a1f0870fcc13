import { topUpAccount, updateAccount, type AccountInput } from '../../src/store/account-repo';
import { createApiKey, revokeApiKey } from '../../src/store/api-key-repo';
import { storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { FIXTURE } from '../support/read-fixture';
import { expectError, get, newReader, type Json } from '../support/read-http';

// The section 7 codes that list, count and detail produce beyond request validation: 401, 402,
// 403, 409, 429, each with the exact envelope and Cache-Control: no-store (contract §5.9).

let ctx: TestContext;
const ids = FIXTURE.slice(0, 5).map((r) => r.id);

beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(ctx.deps, FIXTURE.slice(0, 5));
});
afterAll(() => ctx.close());

const PATHS = ['/v1/opportunities', '/v1/opportunities/count', `/v1/opportunities/${ids[0]}`];

function expectAuthError(res: Json, status: number, code: string) {
  expectError(res, status, code);
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('401', () => {
  it.each(PATHS)('%s: missing, unknown and revoked keys', async (path) => {
    expectAuthError(await get(ctx.baseUrl, path), 401, 'missing_api_key');
    const bogus = `oppk_${'A'.repeat(40)}`;
    expectAuthError(await get(ctx.baseUrl, path, { key: bogus }), 401, 'invalid_api_key');
    const reader = await newReader(ctx.deps);
    const extra = await createApiKey(ctx.deps.pool, { accountId: reader.accountId });
    await revokeApiKey(ctx.deps.pool, extra.id);
    expectAuthError(await get(ctx.baseUrl, path, { key: extra.key }), 401, 'revoked_api_key');
  });
});

describe('403', () => {
  it.each<[string, AccountInput]>([
    ['api_access_disabled', { status: 'disabled' }],
    ['api_access_suspended', { status: 'suspended' }],
    ['plan_access_pending', { status: 'pending', billing_model: 'legacy_entitlement' }],
    ['plan_access_expired', { status: 'expired', billing_model: 'legacy_entitlement' }],
  ])('%s', async (code, account) => {
    const reader = await newReader(ctx.deps, account);
    for (const path of PATHS)
      expectAuthError(await get(ctx.baseUrl, path, { key: reader.key }), 403, code);
  });

  // Its figures came from a cache entry nothing refreshed while the account was refused: a
  // top-up made then never showed on its 403s. Now at most a second old (polled, not slept).
  it("shows the account's figures as they are, a top-up made while it is refused included", async () => {
    const reader = await newReader(ctx.deps, { balance_millicents: 1000 });
    const count = () => get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
    expect((await count()).headers.get('x-service-balance-millicents')).toBe('1000');
    await updateAccount(ctx.deps.pool, reader.accountId, { status: 'disabled' });
    // Refused from here on (the key cache takes up to a second to see the status).
    let res = await count();
    for (let i = 0; i < 100 && res.status !== 403; i++) res = await pause().then(count);
    expect(res.status).toBe(403);
    await topUpAccount(ctx.deps.pool, reader.accountId, 777);
    for (let i = 0; i < 100 && res.headers.get('x-service-balance-millicents') !== '1777'; i++) {
      res = await pause().then(count);
      expect(res.status).toBe(403);
    }
    expect(res.headers.get('x-service-balance-millicents')).toBe('1777');
  });

  // contract §19.1: a refused account's key is still an authenticated caller: its window goes
  // out, and a burst past its rate is a 429 like any other.
  it('carries X-RateLimit-* and counts against the rate limit', async () => {
    const reader = await newReader(ctx.deps, { status: 'suspended', rps_override: 2 });
    const res = await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key });
    expectAuthError(res, 403, 'api_access_suspended');
    expect(res.headers.get('x-ratelimit-limit')).toBe('2');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const burst = await Promise.all(
      Array.from({ length: 6 }, () =>
        get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key }),
      ),
    );
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s !== 403 && s !== 429)).toEqual([]);
    const limited = burst.find((r) => r.status === 429);
    expect(limited?.body.error.code).toBe('rate_limit_exceeded');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('402', () => {
  it('insufficient_balance: nothing delivered, recorded or charged', async () => {
    const reader = await newReader(ctx.deps, { allowance_override: 0, balance_millicents: 0 });
    const res = await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key });
    expectAuthError(res, 402, 'insufficient_balance');
    expect(res.headers.get('x-service-opportunity-used')).toBe('0');
    const detail = await get(ctx.baseUrl, `/v1/opportunities/${ids[0]}`, { key: reader.key });
    expectAuthError(detail, 402, 'insufficient_balance');
    // A count costs nothing, so it still answers.
    const count = await get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key });
    expect(count.status).toBe(200);
    expect(count.body.count).toBe(5);
  });

  it('opportunity_quota_exhausted for a legacy entitlement', async () => {
    const reader = await newReader(ctx.deps, {
      billing_model: 'legacy_entitlement',
      allowance_override: 0,
    });
    expectAuthError(
      await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key }),
      402,
      'opportunity_quota_exhausted',
    );
  });

  it('a zero-result search is a 200 even without allowance', async () => {
    const reader = await newReader(ctx.deps, { allowance_override: 0, balance_millicents: 0 });
    const res = await get(ctx.baseUrl, '/v1/opportunities?normalized_title=nobody', {
      key: reader.key,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('409 duplicate_request_id', () => {
  it('a reused X-Request-ID on list or detail; nothing replayed', async () => {
    const reader = await newReader(ctx.deps);
    const headers = { 'X-Request-ID': 'dup-1' };
    expect((await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key, headers })).status).toBe(
      200,
    );
    const again = await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key, headers });
    expectAuthError(again, 409, 'duplicate_request_id');
    expect(again.body.error.request_id).toBe('dup-1');
    const detail = await get(ctx.baseUrl, `/v1/opportunities/${ids[1]}`, {
      key: reader.key,
      headers,
    });
    expectAuthError(detail, 409, 'duplicate_request_id');
    // An id spent by a failed request (400) is spent too (contract §17.2).
    const bad = { 'X-Request-ID': 'dup-after-400' };
    expect(
      (await get(ctx.baseUrl, '/v1/opportunities?level=ceo', { key: reader.key, headers: bad }))
        .status,
    ).toBe(400);
    expectAuthError(
      await get(ctx.baseUrl, '/v1/opportunities', { key: reader.key, headers: bad }),
      409,
      'duplicate_request_id',
    );
  });
});

describe('429 rate_limit_exceeded', () => {
  it('past the account rate, with an integer Retry-After and X-RateLimit-*', async () => {
    const reader = await newReader(ctx.deps, { rps_override: 1 });
    const responses = await Promise.all(
      Array.from({ length: 4 }, () =>
        get(ctx.baseUrl, '/v1/opportunities/count', { key: reader.key }),
      ),
    );
    const limited = responses.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    for (const res of limited) {
      expectAuthError(res, 429, 'rate_limit_exceeded');
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(res.headers.get('x-ratelimit-limit')).toBe('1');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    }
  });
});
