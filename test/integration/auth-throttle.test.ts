import { accountWithKey, startAuthApp, type AuthApp } from '../support/auth-app';
import { createTestContext, type TestContext } from '../support/harness';

// contract §19.5: past AUTH_FAILURES_PER_MINUTE failed authentications in a minute from one address,
// 429 rate_limit_exceeded with Retry-After. A context of its own: the limit is 3 here.

/** A context of its own with this throttle limit, and the auth app over it; closed after the block. */
function throttleContext(limit: number): { ctx: () => TestContext; app: () => AuthApp } {
  let ctx: TestContext;
  let app: AuthApp;
  beforeAll(async () => {
    ctx = await createTestContext({ AUTH_FAILURES_PER_MINUTE: String(limit) });
    app = await startAuthApp(ctx.deps);
  });
  afterAll(async () => {
    await app.close();
    await ctx.close();
  });
  return { ctx: () => ctx, app: () => app };
}

const three = throttleContext(3);

describe('authentication failure throttle', () => {
  it('answers 429 with Retry-After once an address has failed 3 times in a minute', async () => {
    const { key } = await accountWithKey(three.ctx().deps);
    // 403s are not authentication failures: they do not count.
    const disabled = await accountWithKey(three.ctx().deps, { status: 'disabled' });
    for (let i = 0; i < 4; i++) {
      expect((await three.app().call('/rest', { 'X-API-Key': disabled.key.key })).status).toBe(403);
    }
    expect((await three.app().call('/rest', { 'X-API-Key': key.key })).status).toBe(200);

    const failures: Record<string, string>[] = [
      {},
      { 'X-API-Key': 'wrong' },
      { 'X-API-Key': `oppk_${'b'.repeat(40)}` },
    ];
    // contract §18.2.1: a 401 says where the address stands in its window of failures.
    for (const [i, headers] of failures.entries()) {
      const refused = await three.app().call('/rest', headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe(String(2 - i));
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBeLessThanOrEqual(60);
    }
    const throttled = await three
      .app()
      .call('/rest', { 'X-API-Key': 'wrong', 'X-Request-ID': 't-4' });
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({
      error: { code: 'rate_limit_exceeded', message: expect.any(String), request_id: 't-4' },
    });
    const retryAfter = throttled.headers.get('retry-after') ?? '';
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(throttled.headers.get('x-ratelimit-limit')).toBe('3');
    expect(throttled.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(throttled.headers.get('x-ratelimit-reset')).toBe(retryAfter);
    // /mcp's refusals are counted in the same window and say so alike.
    const mcpThrottled = await three.app().call('/mcp', { Authorization: 'Bearer wrong' });
    expect(mcpThrottled.status).toBe(429);
    expect(mcpThrottled.headers.get('x-ratelimit-limit')).toBe('3');
    expect(mcpThrottled.headers.get('x-ratelimit-remaining')).toBe('0');

    // The throttle answers only missing and bad keys: a valid key from the same address is
    // served on every endpoint (contract §19.5).
    expect((await three.app().call('/rest', {})).status).toBe(429);
    expect((await three.app().call('/rest', { 'X-API-Key': key.key })).status).toBe(200);
    expect((await three.app().call('/mcp', { Authorization: `Bearer ${key.key}` })).status).toBe(
      200,
    );
  });
});

// Under concurrency the limit held only in sequence: the window was read, then counted in a second
// step, so every failure that read it before the count reached the limit got its 401 (an audit saw
// 73-229 401s from one address in a burst, at a limit of 60).
describe('authentication failure throttle under concurrency', () => {
  const five = throttleContext(5);

  it('answers exactly the limit of 401s to a burst from one address, then 429s', async () => {
    // Without a key, each failure is known at once: they all reach the throttle together.
    const replies = await Promise.all(
      Array.from({ length: 40 }, () => five.app().call('/rest', {})),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(35);
  });
});
