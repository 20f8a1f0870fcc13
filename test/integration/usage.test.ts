import { randomUUID } from 'node:crypto';
import type { AccountInput } from '../../src/store/account-repo';
import { makeRecord, storeAndIndex } from '../support/fixtures';
import { createTestContext, type TestContext } from '../support/harness';
import { accountWithKey, ROOMY, roomyKey } from '../support/factories';
import { updateAccount } from '../../src/store/account-repo';
import { postToolCall } from '../support/mcp-messages';

// contract §5.7: GET /v1/usage and the MCP tool get_usage say in one body what the usage headers of
// contract §18.3 say on the same response, for every billing model (§18.4); free, no request
// id spent, counted against the rate limit.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await storeAndIndex(
    ctx.deps,
    Array.from({ length: 6 }, () => makeRecord()),
  );
});
afterAll(() => ctx.close());

interface Usage {
  plan: string | null;
  billing_model: string;
  period: { start: string; end: string };
  opportunities: { limit: number | null; used: number; remaining: number };
  balance_millicents: number;
  prepaid_credits: number;
  rate_limit: { limit: number; remaining: number; reset: number };
  meta: { request_id: string };
}

const newKey = (input: AccountInput) => roomyKey(ctx.deps, input);

async function get(path: string, key: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(ctx.baseUrl + path, {
    headers: { ...(key ? { 'X-API-Key': key } : {}), ...headers },
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as never };
}

/** A JSON-RPC tools/call to the stateless /mcp endpoint, with the HTTP response's headers. */
async function mcpCall(key: string, name: string, args: Record<string, unknown> = {}) {
  const res = await postToolCall(ctx.baseUrl, key, name, args);
  const rpc = (await res.json()) as {
    result: { structuredContent: Record<string, unknown>; isError?: boolean };
  };
  return { status: res.status, headers: res.headers, result: rpc.result };
}

const num = (headers: Headers, name: string) => {
  const v = headers.get(name);
  return v === null ? null : Number(v);
};

/** What the body must be, read off the headers of the same response. */
function expectMatchesHeaders(body: Usage, headers: Headers) {
  expect(body.plan).toBe(headers.get('x-service-plan'));
  expect(body.period.end).toBe(headers.get('x-service-period-end'));
  expect(new Date(body.period.start).getTime()).toBeLessThan(new Date(body.period.end).getTime());
  expect(body.opportunities).toEqual({
    limit: num(headers, 'x-service-opportunity-limit'),
    used: num(headers, 'x-service-opportunity-used'),
    remaining: num(headers, 'x-service-opportunity-remaining'),
  });
  expect(body.balance_millicents).toBe(num(headers, 'x-service-balance-millicents'));
  expect(body.prepaid_credits).toBe(num(headers, 'x-service-prepaid-opportunity-credits'));
  expect(body.rate_limit).toEqual({
    limit: num(headers, 'x-ratelimit-limit'),
    remaining: num(headers, 'x-ratelimit-remaining'),
    reset: num(headers, 'x-ratelimit-reset'),
  });
  expect(body.meta.request_id).toBe(headers.get('x-request-id'));
}

const MODELS: [string, AccountInput, Partial<Usage>][] = [
  [
    'plan (builder, own allowance)',
    { plan: 'builder', allowance_override: 2, balance_millicents: 1000 },
    {
      plan: 'builder',
      billing_model: 'plan',
      opportunities: { limit: 2, used: 3, remaining: 0 },
      balance_millicents: 600,
      prepaid_credits: 1,
    },
  ],
  [
    'legacy_entitlement',
    { plan: 'free', billing_model: 'legacy_entitlement', allowance_override: 5 },
    {
      plan: null,
      billing_model: 'legacy_entitlement',
      opportunities: { limit: 5, used: 3, remaining: 2 },
      balance_millicents: 0,
      prepaid_credits: 0,
    },
  ],
  [
    'legacy_wallet',
    { plan: 'free', billing_model: 'legacy_wallet', balance_millicents: 2000 },
    {
      plan: null,
      billing_model: 'legacy_wallet',
      opportunities: { limit: 0, used: 3, remaining: 0 },
      balance_millicents: 800,
      prepaid_credits: 2,
    },
  ],
];

describe.each(MODELS)('billing model %s', (_name, input, expected) => {
  let key: string;
  beforeAll(async () => {
    key = await newKey(input);
    const page = await get('/v1/opportunities?limit=3', key);
    expect(page.status).toBe(200);
  });

  it('GET /v1/usage: every figure equals its header on the same response', async () => {
    const res = await get('/v1/usage', key);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject(expected);
    expectMatchesHeaders(res.body, res.headers);
    expect(res.headers.get('x-service-new-opportunity-count')).toBe('0');
    expect(res.headers.get('x-service-usage-charge-millicents')).toBe('0');
  });

  it('get_usage over MCP returns the same envelope, matching its HTTP headers', async () => {
    const res = await mcpCall(key, 'get_usage');
    expect(res.status).toBe(200);
    expect(res.result.isError).toBeUndefined();
    const body = res.result.structuredContent as unknown as Usage;
    expect(body).toMatchObject(expected);
    expectMatchesHeaders(body, res.headers);
    const rest = (await get('/v1/usage', key)).body as Usage;
    expect({ ...body, meta: null, rate_limit: null }).toEqual({
      ...rest,
      meta: null,
      rate_limit: null,
    });
  });
});

describe('an account whose period moved back (a stored period cleared: the calendar month)', () => {
  // The usage rows of both periods are in the ledger; the later one is not the current period's.
  // The reads that deliver nothing used to take the latest row and drop it: used 0, the whole
  // allowance remaining, while deliveries charged from the right row.
  it('usage reads count the current period, as the deliveries do', async () => {
    const now = Date.now();
    const { accountId, key } = await accountWithKey(ctx.deps, {
      ...ROOMY,
      plan: 'builder',
      period_start: new Date(now - 1000),
      period_end: new Date(now + 30 * 86_400_000),
    });
    expect((await get('/v1/opportunities?limit=2', key.key)).status).toBe(200);
    await updateAccount(ctx.deps.pool, accountId, { period_start: null, period_end: null });
    const page = await get('/v1/opportunities?limit=3', key.key);
    expect(page.status).toBe(200);
    const used = num(page.headers, 'x-service-opportunity-used');
    expect(used).toBe(3);
    const usage = await get('/v1/usage', key.key);
    expect((usage.body as Usage).opportunities.used).toBe(used);
    expectMatchesHeaders(usage.body, usage.headers);
    const count = await get('/v1/opportunities/count', key.key);
    expect(num(count.headers, 'x-service-opportunity-used')).toBe(used);
    const tool = await mcpCall(key.key, 'get_usage');
    expect((tool.result.structuredContent as unknown as Usage).opportunities.used).toBe(used);
  });
});

it('needs a key, and answers 401 with the error envelope without one', async () => {
  const res = await get('/v1/usage', null);
  expect(res.status).toBe(401);
  expect(res.body).toMatchObject({ error: { code: 'missing_api_key' } });
});

it('spends no request id and delivers nothing', async () => {
  const key = await newKey({ plan: 'growth' });
  const id = `usage-${randomUUID()}`;
  expect((await get('/v1/usage', key, { 'X-Request-ID': id })).status).toBe(200);
  expect((await get('/v1/usage', key, { 'X-Request-ID': id })).status).toBe(200);
  const list = await get('/v1/opportunities?limit=1', key, { 'X-Request-ID': id });
  expect(list.status).toBe(200);
  const after = await get('/v1/usage', key);
  expect((after.body as Usage).opportunities.used).toBe(1);
});

it('counts against the rate limit: the first call of a fresh window already used one', async () => {
  // A peek would show the whole window (2); a counted call shows 1 left. No timing is asserted.
  const key = (await accountWithKey(ctx.deps, { plan: 'growth', rps_override: 2 })).key.key;
  const rest = await get('/v1/usage', key);
  expect(rest.headers.get('x-ratelimit-limit')).toBe('2');
  expect(rest.headers.get('x-ratelimit-remaining')).toBe('1');
  const other = (await accountWithKey(ctx.deps, { plan: 'growth', rps_override: 2 })).key.key;
  const mcp = await mcpCall(other, 'get_usage');
  expect((mcp.result.structuredContent as unknown as Usage).rate_limit).toMatchObject({
    limit: 2,
    remaining: 1,
  });
});

it('get_usage refuses arguments with invalid_filter like other tools', async () => {
  const key = await newKey({ plan: 'growth' });
  const res = await mcpCall(key, 'get_usage', { account: 'x' });
  expect(res.result.isError).toBe(true);
  expect(res.result.structuredContent).toMatchObject({
    error: { code: 'invalid_filter', details: { parameter: 'account' } },
  });
});
