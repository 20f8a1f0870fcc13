import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimits, RateLimitExceeded, rateLimitHeaders } from '../../src/billing/rate-limit';
import { Limiter } from '../../src/infra/limiter';

// contract §19.1: one-second windows per account and per key on Redis, 429 rate_limit_exceeded with an
// integer Retry-After; the service keeps answering when Redis is absent or fails.

const redisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The options bootstrap.ts uses: commands fail fast instead of queueing while disconnected. */
const connect = (url: string) => {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  return redis;
};
const caller = (accountRps: number, keyRps: number | null = null, accountId = randomUUID()) => ({
  accountId,
  keyId: randomUUID(),
  accountRps,
  keyRps,
});

async function refusal(promise: Promise<unknown>): Promise<RateLimitExceeded> {
  const err = await promise.then(
    () => new Error('expected a 429'),
    (e: unknown) => e,
  );
  if (!(err instanceof RateLimitExceeded)) throw err;
  return err;
}

async function ready(redis: Redis) {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

describe('rate limits on Redis', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = connect(redisUrl());
    await ready(redis);
  });
  afterAll(() => redis.disconnect());

  it('refuses the 3rd request in one second at 2 rps with an integer Retry-After', async () => {
    const limits = new RateLimits(redis);
    const c = caller(2);
    expect(await limits.check(c)).toEqual({ limit: 2, remaining: 1, resetSeconds: 1 });
    expect(await limits.check(c)).toMatchObject({ limit: 2, remaining: 0 });
    const err = await refusal(limits.check(c));
    expect(err).toMatchObject({ code: 'rate_limit_exceeded', status: 429 });
    expect(Number.isInteger(err.retryAfter)).toBe(true);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(rateLimitHeaders(err.decision)).toEqual({
      'X-RateLimit-Limit': '2',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(err.retryAfter),
    });
  });

  it('counts the account across its keys, and a stricter key on its own', async () => {
    const limits = new RateLimits(redis);
    const accountId = randomUUID();
    const a = caller(2, null, accountId);
    const b = caller(2, null, accountId);
    await limits.check(a);
    await limits.check(b);
    expect((await refusal(limits.check(a))).code).toBe('rate_limit_exceeded');

    const strict = caller(10, 1);
    expect(await limits.check(strict)).toMatchObject({ limit: 1, remaining: 0 });
    expect((await refusal(limits.check(strict))).decision.limit).toBe(1);
    // Another key of the same account is not held by that key's limit.
    expect(await limits.check({ ...strict, keyId: randomUUID(), keyRps: null })).toMatchObject({
      limit: 10,
    });
  });

  // A request the key's own limit refuses used to be counted against the account too.
  it("a key held to its own limit does not use up its account's window", async () => {
    const limits = new RateLimits(redis);
    const accountId = randomUUID();
    const strict = caller(5, 3, accountId);
    for (let i = 0; i < 6; i++) {
      await limits.check(strict).catch((err: unknown) => {
        if (!(err instanceof RateLimitExceeded)) throw err;
      });
    }
    // The key was served three at most in the window, so the account still has room for another.
    expect(await limits.check(caller(5, null, accountId))).toMatchObject({ limit: 5 });
  });

  // The account's refusals were counted in the key's own window, which starts at another moment:
  // in the account's next window the key, never served, was refused by its own limit.
  it("a request its account refuses does not use up the key's own window", async () => {
    // The scenario needs the account's window to stay full from its first request to the key's
    // third; a machine that stalls past the second is given another try with new ids.
    for (let attempt = 1; ; attempt++) {
      const limits = new RateLimits(redis);
      const accountId = randomUUID();
      for (let i = 0; i < 5; i++) await limits.check(caller(5, null, accountId));
      const strict = caller(5, 3, accountId);
      const answers = await Promise.allSettled([1, 2, 3].map(() => limits.check(strict)));
      if (answers.some((a) => a.status === 'fulfilled') && attempt < 5) continue;
      for (const answer of answers) {
        expect(answer.status).toBe('rejected');
        // The limit that refused is the account's, not the key's.
        if (answer.status === 'rejected') {
          expect(String(answer.reason)).toContain('Rate limit of 5 requests per second');
        }
      }
      // The account at another limit (an admin raised it) counts in a window of its own, empty:
      // the key, never served, still has its three.
      for (let i = 0; i < 3; i++) {
        expect(await limits.check({ ...strict, accountRps: 50 })).toMatchObject({ limit: 3 });
      }
      return;
    }
  });

  // rate-limiter-flexible's reward opens a window when there is none: a refund that came just
  // after the key's window ended started the next at -1, and the key was served 4 of 3 (5 with two
  // such refunds). The window's end is its Redis key's expiry, made here by deleting the key.
  it('a refund after its window ended gives nothing back, and opens no window below zero', async () => {
    const prefix = `rl:refund-${randomUUID()}`;
    const limiter = new Limiter(redis, { keyPrefix: prefix, durationSeconds: 1 });
    const key = randomUUID();
    const taken = await limiter.consume(key, 3);
    expect(taken.allowed).toBe(true);
    await limiter.refund(key, 3, taken.windowEndsAt);
    expect(await redis.get(`${prefix}:3:${key}`)).toBe('0');
    await redis.del(`${prefix}:3:${key}`);
    await limiter.refund(key, 3, taken.windowEndsAt);
    await limiter.refund(key, 3, taken.windowEndsAt);
    expect(await redis.exists(`${prefix}:3:${key}`)).toBe(0);
    // A window opened since keeps its count: a refund for a window that has ended (its end passed)
    // takes nothing from it.
    const opened = await limiter.consume(key, 3);
    await limiter.refund(key, 3, Date.now() - 1_000);
    expect(await redis.get(`${prefix}:3:${key}`)).toBe('1');
    await limiter.refund(key, 3, opened.windowEndsAt);
    expect(await redis.get(`${prefix}:3:${key}`)).toBe('0');
    const served = [];
    for (let i = 0; i < 4; i++) served.push((await limiter.consume(key, 3)).allowed);
    expect(served).toEqual([true, true, true, false]);
  });

  it('shares the counters between service instances through Redis', async () => {
    const c = caller(2);
    await new RateLimits(redis).check(c);
    await new RateLimits(redis).check(c);
    await expect(refusal(new RateLimits(redis).check(c))).resolves.toBeInstanceOf(
      RateLimitExceeded,
    );
  });

  it('lets requests through again once the window has passed', async () => {
    const limits = new RateLimits(redis);
    const c = caller(1);
    await limits.check(c);
    const err = await refusal(limits.check(c));
    await new Promise((r) => setTimeout(r, (err.retryAfter ?? 1) * 1000 + 100));
    await expect(limits.check(c)).resolves.toMatchObject({ limit: 1 });
  });

  it('limits the preview per client address per minute', async () => {
    const limits = new RateLimits(redis);
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}-${randomUUID()}`;
    await limits.previewCheck(ip, 2);
    await limits.previewCheck(ip, 2);
    const err = await refusal(limits.previewCheck(ip, 2));
    expect(err.code).toBe('preview_rate_limit_exceeded');
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.retryAfter).toBeLessThanOrEqual(60);
    await expect(limits.previewCheck(`${ip}-other`, 2)).resolves.toMatchObject({ limit: 2 });
  });
});

describe('rate limits without Redis', () => {
  it('keeps answering and limiting when Redis is disconnected mid-run', async () => {
    const redis = connect(redisUrl());
    await ready(redis);
    const limits = new RateLimits(redis);
    await expect(limits.check(caller(5))).resolves.toMatchObject({ limit: 5 });
    redis.disconnect();
    const c = caller(2);
    await expect(limits.check(c)).resolves.toMatchObject({ limit: 2 });
    await expect(limits.check(c)).resolves.toMatchObject({ limit: 2 });
    expect((await refusal(limits.check(c))).code).toBe('rate_limit_exceeded');
  });

  it('keeps answering when Redis never answered (nothing listens on its port)', async () => {
    const redis = connect('redis://127.0.0.1:1');
    try {
      const limits = new RateLimits(redis);
      const c = caller(1);
      await expect(limits.check(c)).resolves.toMatchObject({ limit: 1 });
      expect((await refusal(limits.check(c))).code).toBe('rate_limit_exceeded');
      await expect(limits.previewCheck('203.0.113.9', 30)).resolves.toMatchObject({ limit: 30 });
    } finally {
      redis.disconnect();
    }
  });

  it('limits in process when Redis is not configured', async () => {
    const limits = new RateLimits(null);
    const c = caller(1);
    await limits.check(c);
    expect((await refusal(limits.check(c))).retryAfter).toBe(1);
  });
});
