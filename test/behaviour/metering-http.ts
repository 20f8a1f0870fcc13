import { createHmac, randomUUID } from 'node:crypto';
import { makeRecord } from '../support/fixtures';
import type { StartWorld, World } from '../support/worlds';
import type { AccountInput } from '../../src/store/account-repo';
import { ROOMY } from '../support/factories';

// contract §16, §18 end to end: the usage headers agree with the ledger.

/** A marketplace proxy's signature of `requestId` at `t` (contract §18.5), under the test secret. */
const sign = (requestId: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${createHmac('sha256', 'test-marketplace-secret').update(`${t}.${requestId}`).digest('hex')}`;

/** The usage headers against the ledger, end to end, in one world. */
export function meteringBehaviour(start: StartWorld): void {
  let world: World;
  beforeAll(async () => {
    world = await start(Array.from({ length: 12 }, () => makeRecord()));
  });
  afterAll(() => world.close());

  async function keyFor(input: AccountInput) {
    const { accountId, key } = await world.account({ ...ROOMY, ...input });
    return { account: { id: accountId }, key };
  }

  async function get(path: string, key: string, headers: Record<string, string> = {}) {
    const res = await fetch(world.baseUrl + path, { headers: { 'X-API-Key': key, ...headers } });
    const body = (await res.json()) as {
      data?: { id: string }[];
      pagination?: { next_cursor: string | null };
      error?: { code: string; request_id: string };
    };
    const h = (name: string) => res.headers.get(name);
    return { status: res.status, body, h };
  }

  const usage = (h: (n: string) => string | null) => ({
    new: h('x-service-new-opportunity-count'),
    included: h('x-service-included-new-opportunity-count'),
    payg: h('x-service-payg-new-opportunity-count'),
    charge: h('x-service-usage-charge-millicents'),
    balance: h('x-service-balance-millicents'),
    credits: h('x-service-prepaid-opportunity-credits'),
    limit: h('x-service-opportunity-limit'),
    used: h('x-service-opportunity-used'),
    remaining: h('x-service-opportunity-remaining'),
  });

  it('uses included allowance first, then prepaid credit, and refuses all or nothing', async () => {
    const { account, key } = await keyFor({
      plan: 'builder',
      allowance_override: 3,
      balance_millicents: 1000,
    });
    const first = await get('/v1/opportunities?limit=5', key);
    expect(first.status).toBe(200);
    expect(usage(first.h)).toEqual({
      new: '5',
      included: '3',
      payg: '2',
      charge: '800',
      balance: '200',
      credits: '0',
      limit: '3',
      used: '5',
      remaining: '0',
    });
    expect(first.h('x-service-plan')).toBe('builder');
    expect(new Date(first.h('x-service-period-end') ?? '').toISOString()).toBeTruthy();
    expect(first.h('cache-control')).toBe('no-store');

    const repeat = await get('/v1/opportunities?limit=5', key);
    expect(usage(repeat.h)).toMatchObject({ new: '0', charge: '0', balance: '200', used: '5' });

    const next = await get(
      `/v1/opportunities?limit=5&cursor=${encodeURIComponent(first.body.pagination?.next_cursor ?? '')}`,
      key,
    );
    expect(next.status).toBe(402);
    expect(next.body.error?.code).toBe('insufficient_balance');
    expect(next.body.data).toBeUndefined();
    expect(usage(next.h)).toMatchObject({ balance: '200', used: '5', remaining: '0' });
    expect(await world.delivered(account.id)).toBe(5);

    const count = await get('/v1/opportunities/count', key);
    expect(count.status).toBe(200);
    expect(usage(count.h)).toMatchObject({ new: '0', charge: '0', used: '5', balance: '200' });
  });

  it("counts asked together share the ledger's read, never one older than the request", async () => {
    const { key } = await keyFor({ plan: 'builder', balance_millicents: 0 });
    const counts = () =>
      Promise.all(
        Array.from({ length: 8 }, () => get('/v1/opportunities/count?remote=false', key)),
      );
    for (const count of await counts()) expect(usage(count.h)).toMatchObject({ used: '0' });
    const list = await get('/v1/opportunities?limit=3', key);
    expect(usage(list.h)).toMatchObject({ new: '3', used: '3' });
    // Asked after the delivery was committed: each shows it (service/usage-reads.ts).
    for (const count of await counts()) {
      expect(count.status).toBe(200);
      expect(usage(count.h)).toMatchObject({ new: '0', charge: '0', used: '3' });
    }
  });

  it('refuses a reused X-Request-ID with 409 and delivers nothing; a new id works', async () => {
    const { key } = await keyFor({ plan: 'builder', balance_millicents: 0 });
    const id = `req-${randomUUID()}`;
    const first = await get('/v1/opportunities?limit=2', key, { 'X-Request-ID': id });
    expect(first.status).toBe(200);
    expect(first.h('x-request-id')).toBe(id);
    const again = await get('/v1/opportunities?limit=2&level=senior', key, { 'X-Request-ID': id });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'duplicate_request_id', request_id: id });
    expect(usage(again.h)).toMatchObject({ used: '2' });
    // Counts spend no id (contract §17.2).
    expect((await get('/v1/opportunities/count', key, { 'X-Request-ID': id })).status).toBe(200);
    expect(
      (await get('/v1/opportunities?limit=2', key, { 'X-Request-ID': `${id}-2` })).status,
    ).toBe(200);
  });

  it('bills legacy wallets for everything and shows no plan header', async () => {
    const { key } = await keyFor({
      plan: 'free',
      billing_model: 'legacy_wallet',
      balance_millicents: 2000,
    });
    const res = await get('/v1/opportunities?limit=3', key);
    expect(res.status).toBe(200);
    expect(usage(res.h)).toMatchObject({
      new: '3',
      included: '0',
      payg: '3',
      charge: '1200',
      balance: '800',
      limit: '0',
      remaining: '0',
      credits: '2',
    });
    expect(res.h('x-service-plan')).toBeNull();
  });

  it('legacy entitlement past its allowance: 402 opportunity_quota_exhausted', async () => {
    const { key } = await keyFor({
      plan: 'free',
      billing_model: 'legacy_entitlement',
      allowance_override: 2,
    });
    expect((await get('/v1/opportunities?limit=2', key)).status).toBe(200);
    const over = await get('/v1/opportunities?limit=3', key);
    expect(over.status).toBe(402);
    expect(over.body.error?.code).toBe('opportunity_quota_exhausted');
  });

  it('emits X-Marketplace-Billing only for a verified marketplace-proxy request', async () => {
    const { key } = await keyFor({ plan: 'growth' });
    const id1 = randomUUID();
    const verified = await get('/v1/opportunities?limit=4', key, {
      'X-Request-ID': id1,
      'X-Marketplace-Proxy-Signature': sign(id1),
    });
    expect(verified.h('x-marketplace-billing')).toBe('Opportunities=4');
    const id2 = randomUUID();
    const repeat = await get('/v1/opportunities?limit=4', key, {
      'X-Request-ID': id2,
      'X-Marketplace-Proxy-Signature': sign(id2),
    });
    expect(repeat.h('x-marketplace-billing')).toBe('Opportunities=0');
    const id3 = randomUUID();
    const forged = await get('/v1/opportunities?limit=4', key, {
      'X-Request-ID': id3,
      'X-Marketplace-Proxy-Signature': sign('other'),
    });
    expect(forged.h('x-marketplace-billing')).toBeNull();
    const id4 = randomUUID();
    const stale = await get('/v1/opportunities?limit=4', key, {
      'X-Request-ID': id4,
      'X-Marketplace-Proxy-Signature': sign(id4, Math.floor(Date.now() / 1000) - 301),
    });
    expect(stale.h('x-marketplace-billing')).toBeNull();
    expect((await get('/v1/opportunities?limit=4', key)).h('x-marketplace-billing')).toBeNull();
  });

  // The 403 of a refused account is answered before the service: it left the header out where
  // every other refusal of a verified request (400, 402, 404) carries Opportunities=0.
  it("a verified marketplace-proxy request refused for its account's status still gets X-Marketplace-Billing", async () => {
    const { key } = await keyFor({ plan: 'growth', status: 'disabled' });
    const id = randomUUID();
    const refused = await get('/v1/opportunities?limit=4', key, {
      'X-Request-ID': id,
      'X-Marketplace-Proxy-Signature': sign(id),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('api_access_disabled');
    expect(refused.h('x-marketplace-billing')).toBe('Opportunities=0');
    const direct = await get('/v1/opportunities?limit=4', key);
    expect(direct.status).toBe(403);
    expect(direct.h('x-marketplace-billing')).toBeNull();
  });

  it('rate limits per account with X-RateLimit headers and an integer Retry-After, counts included', async () => {
    const { key } = await world.account({ plan: 'free' });
    const results = await Promise.all([1, 2, 3, 4].map(() => get('/v1/opportunities/count', key)));
    const limited = results.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    const r = limited[0];
    expect(r?.body.error?.code).toBe('rate_limit_exceeded');
    expect(r?.h('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(r?.h('x-ratelimit-limit')).toBe('2');
    expect(r?.h('x-ratelimit-remaining')).toBe('0');
    expect(r?.h('x-ratelimit-reset')).toMatch(/^[1-9]\d*$/);
    expect(r?.h('x-service-opportunity-limit')).toBe('1000');
  });

  it('a 403 names the account, so it carries the account usage headers', async () => {
    const { key } = await keyFor({
      plan: 'builder',
      status: 'suspended',
      balance_millicents: 1200,
    });
    const res = await get('/v1/opportunities', key);
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('api_access_suspended');
    expect(usage(res.h)).toMatchObject({ balance: '1200', credits: '3', used: '0', new: '0' });
    expect(res.h('cache-control')).toBe('no-store');
  });
}
