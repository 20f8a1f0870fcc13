import type { Redis } from 'ioredis';
import { metrics } from './metrics';
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
  /** Whole seconds until the window resets, at least 1 (decisions 8). */
  resetSeconds: number;
}

/**
 * Fixed-window counters on Redis when it is configured, with an in-process limiter as insurance:
 * when Redis fails at run time the service keeps serving and counting (decisions 8, issue 7).
 * Limits differ per key (plans, overrides), so there is one underlying limiter per limit value.
 */
export class Limiter {
  private readonly byLimit = new Map<number, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis | null,
    private readonly options: LimiterOptions,
  ) {}

  /** Takes one point for `key` against a window of `limit` points. */
  async consume(key: string, limit: number): Promise<LimitDecision> {
    // rejectIfRedisNotReady sends every decision to the in-process insurance while Redis is down.
    if (this.redis) metrics.limiterBackend(this.redis.status === 'ready');
    try {
      return this.decision(true, limit, await this.limiterFor(limit).consume(key, 1));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.decision(false, limit, rejection);
      throw rejection;
    }
  }

  /** The current window of `key` against `limit` points, without taking one. */
  async peek(key: string, limit: number): Promise<LimitDecision> {
    const res = await this.limiterFor(limit)
      .get(key)
      .catch(() => null);
    if (!res) return { allowed: true, limit, remaining: limit, resetSeconds: 1 };
    return this.decision(res.consumedPoints < limit, limit, res);
  }

  /** Whether `key` has used up a window of `limit` points, without taking one. */
  async blocked(key: string, limit: number): Promise<LimitDecision | null> {
    const decision = await this.peek(key, limit);
    return decision.allowed ? null : decision;
  }

  private limiterFor(limit: number): RateLimiterAbstract {
    let limiter = this.byLimit.get(limit);
    if (!limiter) {
      const keyPrefix = `${this.options.keyPrefix}:${limit}`;
      const base = { keyPrefix, points: limit, duration: this.options.durationSeconds };
      const memory = new RateLimiterMemory(base);
      limiter = this.redis
        ? new RateLimiterRedis({
            ...base,
            storeClient: this.redis,
            insuranceLimiter: memory,
            rejectIfRedisNotReady: true,
          })
        : memory;
      this.byLimit.set(limit, limiter);
    }
    return limiter;
  }

  private decision(allowed: boolean, limit: number, res: RateLimiterRes): LimitDecision {
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - res.consumedPoints),
      resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    };
  }
}
