import type { Redis } from 'ioredis';
import { metrics } from './metrics';
import { isCommandTimeout, replaceStalledConnection } from './redis-client';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

export interface LimiterOptions {
  keyPrefix: string;
  durationSeconds: number;
}

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1 (contract §19.2). */
  resetSeconds: number;
  /** When the window this decision counted in ends (epoch ms): a refund goes to it alone. */
  windowEndsAt: number;
}

/**
 * One point back, only into the window it was taken from: one that exists, holds a point, and ends
 * no later than that window did (ARGV[1], ms from now: a window opened since ends later). DECR
 * keeps the key's expiry.
 */
const REFUND_IF_OPEN = `local points = tonumber(redis.call('get', KEYS[1]))
local left = redis.call('pttl', KEYS[1])
if points and points > 0 and left > 0 and left <= tonumber(ARGV[1]) then
  return redis.call('decr', KEYS[1])
end
return 0`;

/** Slack for the time between the window's end as computed here and as Redis counts it. */
const SAME_WINDOW_SLACK_MS = 50;

/**
 * Fixed-window counters on Redis when it is configured, with an in-process limiter as insurance:
 * when Redis fails or hangs at run time the service keeps serving and counting
 * (contract §20.3).
 * Limits differ per key (plans, overrides), so there is one underlying limiter per limit value.
 */
export class Limiter {
  private readonly byLimit = new Map<
    number,
    { shared: RateLimiterAbstract | null; local: RateLimiterAbstract }
  >();

  constructor(
    private readonly redis: Redis | null,
    private readonly options: LimiterOptions,
  ) {}

  /** Takes one point for `key` against a window of `limit` points. */
  async consume(key: string, limit: number): Promise<LimitDecision> {
    try {
      return this.decision(true, limit, await this.onBackend(limit, (l) => l.consume(key, 1)));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, limit, rejection);
      throw rejection;
    }
  }

  /**
   * Gives back a point `consume` took, for a request another window refused, while the window it
   * was taken from is still open. rate-limiter-flexible's reward opens a window when there is none:
   * a refund that came just after the window ended started the next one at -1, and the key was
   * then served above its limit.
   */
  async refund(key: string, limit: number, windowEndsAt: number): Promise<void> {
    const { shared, local } = this.limitersFor(limit);
    const endsWithin = windowEndsAt - Date.now() + SAME_WINDOW_SLACK_MS;
    if (shared && this.redis) {
      try {
        await this.redis.eval(REFUND_IF_OPEN, 1, shared.getKey(key), endsWithin);
        return;
      } catch {
        // Redis failing: the point was likely taken in process too (onBackend's fallback).
      }
    }
    const window = await local.get(key);
    const same = window && window.msBeforeNext > 0 && window.msBeforeNext <= endsWithin;
    if (same && window.consumedPoints > 0) await local.reward(key, 1);
  }

  /** The current window of `key` against `limit` points, without taking one. */
  async peek(key: string, limit: number): Promise<LimitDecision> {
    const res = await this.onBackend(limit, (l) => l.get(key)).catch(() => null);
    if (!res) {
      return { allowed: true, limit, remaining: limit, resetSeconds: 1, windowEndsAt: Date.now() };
    }
    return this.decision(res.consumedPoints < limit, limit, res);
  }

  /**
   * Runs `call` on Redis when it is configured, and on the in-process limiter when there is no
   * Redis or when the Redis call fails: not ready (rejectIfRedisNotReady), an error, or a command
   * that outlived REDIS_TIMEOUT_MS on a connection that still looks ready (a hung server, a
   * half-open connection), which is then replaced. The fallback metric follows what actually
   * decided, not the client's connection status.
   */
  private async onBackend<T>(
    limit: number,
    call: (l: RateLimiterAbstract) => Promise<T>,
  ): Promise<T> {
    const { shared, local } = this.limitersFor(limit);
    if (!shared) return call(local);
    try {
      const result = await call(shared);
      metrics.limiterBackend(true);
      return result;
    } catch (err) {
      // A refusal is Redis deciding, not failing.
      if (err instanceof RateLimiterRes) {
        metrics.limiterBackend(true);
        throw err;
      }
      metrics.limiterBackend(false);
      if (isCommandTimeout(err) && this.redis) replaceStalledConnection(this.redis);
      return call(local);
    }
  }

  private limitersFor(limit: number): {
    shared: RateLimiterAbstract | null;
    local: RateLimiterAbstract;
  } {
    let pair = this.byLimit.get(limit);
    if (!pair) {
      const keyPrefix = `${this.options.keyPrefix}:${limit}`;
      const base = { keyPrefix, points: limit, duration: this.options.durationSeconds };
      pair = {
        local: new RateLimiterMemory(base),
        shared: this.redis
          ? new RateLimiterRedis({ ...base, storeClient: this.redis, rejectIfRedisNotReady: true })
          : null,
      };
      this.byLimit.set(limit, pair);
    }
    return pair;
  }

  private decision(allowed: boolean, limit: number, res: RateLimiterRes): LimitDecision {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - res.consumedPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      windowEndsAt: Date.now() + res.msBeforeNext,
    };
  }
}
