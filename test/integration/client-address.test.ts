import { createTestContext, type TestContext } from '../support/harness';
import { expectError, get, newReader } from '../support/read-http';

// contract §19.6: the client address is the socket's unless TRUST_PROXY says which proxies to
// believe; IPv6 addresses are grouped by /64; a valid key is never refused for its address's
// failed authentications. contract §21.3: /mcp checks Origin.

const preview = (ctx: TestContext, forwardedFor: string) =>
  get(ctx.baseUrl, '/v1/preview/opportunities', { headers: { 'X-Forwarded-For': forwardedFor } });

describe('without TRUST_PROXY', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ PREVIEW_REQUESTS_PER_MINUTE: '2' });
  });
  afterAll(() => ctx.close());

  it('X-Forwarded-For is not believed: every client of one socket address shares its budget', async () => {
    expect((await preview(ctx, '198.51.100.1')).status).toBe(200);
    expect((await preview(ctx, '198.51.100.2')).status).toBe(200);
    expectError(await preview(ctx, '198.51.100.3'), 429, 'preview_rate_limit_exceeded');
  });
});

describe('TRUST_PROXY=loopback', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({
      TRUST_PROXY: 'loopback',
      PREVIEW_REQUESTS_PER_MINUTE: '2',
      AUTH_FAILURES_PER_MINUTE: '2',
      MCP_ALLOWED_ORIGINS: 'https://console.example.com, https://tools.example.com/',
    });
  });
  afterAll(() => ctx.close());

  it('the forwarded address counts, IPv6 grouped by /64', async () => {
    expect((await preview(ctx, '2001:db8:1:2::1')).status).toBe(200);
    expect((await preview(ctx, '2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(200);
    expectError(await preview(ctx, '2001:0db8:0001:0002::9'), 429, 'preview_rate_limit_exceeded');
    expect((await preview(ctx, '2001:db8:1:3::1')).status).toBe(200);
    expect((await preview(ctx, '203.0.113.9')).status).toBe(200);
  });

  it('failed authentications throttle missing and bad keys, never a valid one', async () => {
    const { key } = await newReader(ctx.deps);
    const from = (address: string, headers: Record<string, string> = {}) =>
      get(ctx.baseUrl, '/v1/opportunities/count', {
        headers: { 'X-Forwarded-For': address, ...headers },
      });
    const bad = { 'X-API-Key': `oppk_${'z'.repeat(40)}` };
    expectError(await from('2001:db8:9:9::1', bad), 401, 'invalid_api_key');
    expectError(await from('2001:db8:9:9::2'), 401, 'missing_api_key');
    // The /64 is past 2 failures a minute: failures get 429...
    expectError(await from('2001:db8:9:9:abcd::3', bad), 429, 'rate_limit_exceeded');
    expectError(await from('2001:db8:9:9::4'), 429, 'rate_limit_exceeded');
    // ...but a valid key from the same addresses is served, over REST and /mcp alike.
    expect((await from('2001:db8:9:9::1', { 'X-API-Key': key })).status).toBe(200);
    const mcp = await fetch(`${ctx.baseUrl}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'X-Forwarded-For': '2001:db8:9:9::1',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(200);
    // Another /64 has its own count.
    expectError(await from('2001:db8:9:a::1', bad), 401, 'invalid_api_key');
  });

  describe('MCP Origin', () => {
    let key: string;
    beforeAll(async () => {
      key = (await newReader(ctx.deps)).key;
    });
    const post = (origin?: string) =>
      fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          'X-API-Key': key,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(origin === undefined ? {} : { Origin: origin }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });

    it.each([
      'https://evil.example',
      'null',
      'http://127.0.0.1:1',
      'https://console.example.com.evil',
    ])('Origin %s → 403 with the envelope', async (origin) => {
      const res = await post(origin);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: {
          code: 'origin_not_allowed',
          message: expect.any(String),
          request_id: expect.any(String),
        },
      });
    });

    it('no Origin, the service’s own origin and listed origins are served', async () => {
      expect((await post()).status).toBe(200);
      expect((await post(ctx.baseUrl)).status).toBe(200);
      expect((await post('https://console.example.com')).status).toBe(200);
      expect((await post('https://TOOLS.example.com')).status).toBe(200);
    });

    it('refuses before authentication: a bad key from a foreign Origin is 403 too', async () => {
      const res = await fetch(`${ctx.baseUrl}/mcp`, {
        method: 'POST',
        headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(403);
    });
  });
});
