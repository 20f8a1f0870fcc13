import { FIXTURE } from '../support/read-fixture';
import { expectError, get } from '../support/read-http';
import { startFastApp, type FastApp } from './support/fast-app';

// Authentication (contract §14), metering (§15, §16) and rates (§19)
// over the in-memory accounts, meter and limiter, through the real app.

let app: FastApp;

beforeAll(async () => (app = await startFastApp(FIXTURE)));
afterAll(() => app.close());

const read = (path: string, key?: string, headers: Record<string, string> = {}) =>
  get(app.baseUrl, path, { key, headers });

/** The usage headers of contract §18.2 on every authenticated response that names an account. */
const USAGE_HEADERS = [
  'x-service-balance-millicents',
  'x-service-usage-charge-millicents',
  'x-service-prepaid-opportunity-credits',
  'x-service-opportunity-limit',
  'x-service-opportunity-used',
  'x-service-opportunity-remaining',
  'x-service-new-opportunity-count',
  'x-service-included-new-opportunity-count',
  'x-service-payg-new-opportunity-count',
  'x-service-period-end',
];
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

describe('authentication', () => {
  it('401 missing_api_key, invalid_api_key (malformed or unknown) and revoked_api_key', async () => {
    expectError(await read('/v1/opportunities'), 401, 'missing_api_key');
    expectError(await read('/v1/opportunities', 'nope'), 401, 'invalid_api_key');
    expectError(await read('/v1/opportunities', `oppk_${'x'.repeat(40)}`), 401, 'invalid_api_key');
    const reader = app.reader();
    app.world.accounts.revokeKey(reader.keyId);
    // The authenticator caches a lookup for up to 1 s: this key was never looked up.
    expectError(await read('/v1/opportunities', reader.key), 401, 'revoked_api_key');
  });

  // contract §6.14: a key anywhere in the query string, name or value, and none in the headers:
  // the 401 says where a key does not go (it said so only for parameters named like a key).
  it.each([
    '/v1/opportunities?api_key=KEY',
    '/v1/opportunities?q=KEY',
    '/v1/opportunities/count?level=KEY',
    '/v1/usage?KEY=1',
    '/v1/opportunities/changes?x=KEY',
  ])('%s without a key header: 401 saying keys in the URL are never accepted', async (path) => {
    const res = await read(path.replace('KEY', `oppk_${'k'.repeat(40)}`));
    expectError(res, 401, 'missing_api_key');
    expect(res.body.error.message).toMatch(/API keys in the URL are never accepted/);
  });

  it('/mcp with a key only in its URL: the same 401', async () => {
    const res = await fetch(`${app.baseUrl}/mcp?q=oppk_${'k'.repeat(40)}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('missing_api_key');
    expect(body.error.message).toMatch(/API keys in the URL are never accepted/);
  });

  it('without a key anywhere, the 401 says only where the key goes', async () => {
    const res = await read('/v1/opportunities?q=rust');
    expectError(res, 401, 'missing_api_key');
    expect(res.body.error.message).not.toMatch(/URL/);
  });

  it('every REST 401 carries a challenge naming the X-API-Key header (RFC 9110 §11.6.1)', async () => {
    for (const [path, key] of [
      ['/v1/opportunities', undefined],
      ['/v1/opportunities/count', 'nope'],
      ['/v1/usage', `oppk_${'y'.repeat(40)}`],
    ] as const) {
      const res = await read(path, key);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(
        'APIKey realm="opportunities", header="X-API-Key"',
      );
    }
    // Not on other refusals.
    const res = await read('/v1/usage', app.reader({ status: 'disabled' }).key);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it.each([
    ['disabled', 'api_access_disabled'],
    ['suspended', 'api_access_suspended'],
    ['pending', 'plan_access_pending'],
    ['expired', 'plan_access_expired'],
  ] as const)('a %s account is 403 %s, with its usage headers', async (status, code) => {
    // pending and expired are a legacy entitlement's (contract §15.2).
    const legacy = status === 'pending' || status === 'expired';
    const reader = app.reader({
      status,
      ...(legacy ? { billing_model: 'legacy_entitlement' } : {}),
    });
    const res = await read('/v1/usage', reader.key);
    expectError(res, 403, code);
    for (const name of USAGE_HEADERS) expect(res.headers.get(name)).not.toBeNull();
  });
});

describe('metering', () => {
  it('a list shows every usage and rate header; included allowance first, then the wallet', async () => {
    const reader = app.reader({ allowance_override: 2, balance_millicents: 1000 });
    const res = await read('/v1/opportunities?limit=3', reader.key);
    expect(res.status).toBe(200);
    for (const name of [...USAGE_HEADERS, ...RATE_HEADERS, 'x-service-plan', 'x-request-id'])
      expect(res.headers.get(name)).not.toBeNull();
    expect(
      Object.fromEntries(USAGE_HEADERS.slice(0, 9).map((n) => [n, res.headers.get(n)])),
    ).toEqual({
      'x-service-balance-millicents': '600',
      'x-service-usage-charge-millicents': '400',
      'x-service-prepaid-opportunity-credits': '1',
      'x-service-opportunity-limit': '2',
      'x-service-opportunity-used': '3',
      'x-service-opportunity-remaining': '0',
      'x-service-new-opportunity-count': '3',
      'x-service-included-new-opportunity-count': '2',
      'x-service-payg-new-opportunity-count': '1',
    });
    // The same page again delivers nothing new and charges nothing.
    const again = await read('/v1/opportunities?limit=3', reader.key);
    expect(again.headers.get('x-service-usage-charge-millicents')).toBe('0');
    expect(again.headers.get('x-service-balance-millicents')).toBe('600');
  });

  it('402 insufficient_balance records and charges nothing', async () => {
    const reader = app.reader({ allowance_override: 1, balance_millicents: 300 });
    const res = await read('/v1/opportunities?limit=3', reader.key);
    expectError(res, 402, 'insufficient_balance');
    expect(res.headers.get('x-service-opportunity-used')).toBe('0');
    expect(res.headers.get('x-service-balance-millicents')).toBe('300');
  });

  it('legacy models (contract §15.3): an entitlement past its allowance is 402 opportunity_quota_exhausted; a wallet includes nothing', async () => {
    const entitled = app.reader({ billing_model: 'legacy_entitlement', allowance_override: 2 });
    const res = await read('/v1/opportunities?limit=3', entitled.key);
    expectError(res, 402, 'opportunity_quota_exhausted');
    expect(res.headers.get('x-service-plan')).toBeNull();

    const wallet = app.reader({ billing_model: 'legacy_wallet', balance_millicents: 800 });
    const paid = await read('/v1/opportunities?limit=2', wallet.key);
    expect(paid.headers.get('x-service-usage-charge-millicents')).toBe('800');
    expect(paid.headers.get('x-service-opportunity-limit')).toBe('0');
  });

  it('409 duplicate_request_id when an account reuses an X-Request-ID', async () => {
    const reader = app.reader();
    const id = 'fast-suite-request-1';
    expect(
      (await read('/v1/opportunities?limit=1', reader.key, { 'X-Request-ID': id })).status,
    ).toBe(200);
    expectError(
      await read('/v1/opportunities?limit=1', reader.key, { 'X-Request-ID': id }),
      409,
      'duplicate_request_id',
    );
    // Another account may use it.
    expect(
      (await read('/v1/opportunities?limit=1', app.reader().key, { 'X-Request-ID': id })).status,
    ).toBe(200);
  });

  it('GET /v1/usage repeats the headers of its own response', async () => {
    const reader = app.reader({ allowance_override: 10 });
    await read('/v1/opportunities?limit=4', reader.key);
    const res = await read('/v1/usage', reader.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan: 'free',
      billing_model: 'plan',
      opportunities: { limit: 10, used: 4, remaining: 6 },
      balance_millicents: 0,
    });
    expect(res.body.opportunities.used).toBe(Number(res.headers.get('x-service-opportunity-used')));
    expect(res.body.rate_limit.limit).toBe(Number(res.headers.get('x-ratelimit-limit')));
  });
});

describe('rate limits', () => {
  it('429 rate_limit_exceeded past the account rate, with Retry-After and X-RateLimit-*', async () => {
    const reader = app.reader({ rps_override: 1 });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await read('/v1/opportunities/count', reader.key));
    const refused = results.find((r) => r.status === 429);
    expect(refused).toBeDefined();
    if (!refused) return;
    expectError(refused, 429, 'rate_limit_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-service-period-end')).not.toBeNull();
  });
});
