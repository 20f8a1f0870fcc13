import { randomUUID } from 'node:crypto';
import { RateLimits } from '../../src/billing/rate-limit';
import { createRedisClient, readyWithin } from '../../src/infra/redis-client';

// The rate-limit commands of the requests handled in one event-loop turn share one socket write
// (ioredis auto-pipelining): a write per request was about a tenth of a cached count's CPU. Each
// request still gets its own decision, counted exactly.

it('one turn of rate checks goes to Redis in one write, each counted', async () => {
  const redis = createRedisClient(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
    timeoutMs: 2000,
  });
  try {
    expect(await readyWithin(redis, 5000)).toBeUndefined();
    const limits = new RateLimits(redis, `pipelining-${randomUUID()}`);
    const subject = {
      accountId: randomUUID(),
      keyId: randomUUID(),
      accountRps: 100,
      keyRps: null,
    };
    // Warm: the limiter's script is loaded and its per-limit objects exist.
    await limits.check(subject);
    const stream = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } })
      .stream;
    const write = stream.write.bind(stream);
    let writes = 0;
    stream.write = (...args: unknown[]) => {
      writes += 1;
      return write(...args);
    };
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limits.check(subject)));
    stream.write = write;
    expect(writes).toBe(1);
    // Eleven counted in all (the warm-up and ten), one each, in order.
    expect(decisions.map((d) => d.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 10 }, (_, i) => 100 - 2 - i),
    );
  } finally {
    redis.disconnect();
  }
});
