import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { metrics } from './metrics';
import { isCommandTimeout, replaceStalledConnection } from './redis-client';

/** Gives a held slot back. Never throws: a slot Redis could not free ends with its lease. */
export type ReleaseSlot = () => Promise<void>;

export interface InFlightOptions {
  keyPrefix: string;
  /**
   * How long a slot taken on Redis lasts if it is never given back (its process died mid-call).
   * Longer than any call it guards: one that outlived it would let one more in.
   */
  leaseMs: number;
}

/**
 * A slot for ARGV[3] (a token) under KEYS[1], a sorted set of tokens by the end of their lease,
 * when fewer than ARGV[1] leases are live; ARGV[2] is the lease. Redis's clock, so every process
 * counts leases by the same time.
 */
const ACQUIRE = `local t = redis.call('time')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[1], '-inf', now)
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('pexpire', KEYS[1], tonumber(ARGV[2]))
return 1`;

/**
 * At most `limit` calls in flight per key, across every process that shares the Redis (contract
 * §19.8 says per account, not per process). Without Redis, or while it fails, the count is the
 * process's own, as the Limiter's windows fall back (contract §20.3): an outage loosens the bound
 * to per process but never refuses for it.
 */
export class InFlightSlots {
  private readonly local = new Map<string, number>();

  constructor(
    private readonly redis: Redis | null,
    private readonly options: InFlightOptions,
  ) {}

  /** Takes one of the key's `limit` slots; null when all are held. */
  async acquire(key: string, limit: number): Promise<ReleaseSlot | null> {
    if (!this.redis) return this.acquireLocal(key, limit);
    const redis = this.redis;
    const name = `${this.options.keyPrefix}:${key}`;
    const token = randomUUID();
    let taken: unknown;
    try {
      taken = await redis.eval(ACQUIRE, 1, name, limit, this.options.leaseMs, token);
    } catch (err) {
      metrics.limiterBackend(false);
      if (isCommandTimeout(err)) replaceStalledConnection(redis);
      const local = this.acquireLocal(key, limit);
      // A script that timed out may still have run and taken a slot on Redis: given back with
      // the process's own, so that it is held for the call rather than the whole lease.
      return local && (() => Promise.all([local(), forget(redis, name, token)]).then(() => {}));
    }
    metrics.limiterBackend(true);
    if (taken !== 1) return null;
    return () => forget(redis, name, token);
  }

  /** Slots the process holds in memory for `key` (while Redis is absent or failing; tests). */
  heldLocally(key: string): number {
    return this.local.get(key) ?? 0;
  }

  private acquireLocal(key: string, limit: number): ReleaseSlot | null {
    const held = this.local.get(key) ?? 0;
    if (held >= limit) return null;
    this.local.set(key, held + 1);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const left = (this.local.get(key) ?? 1) - 1;
      if (left > 0) this.local.set(key, left);
      else this.local.delete(key);
    };
  }
}

/** Gives a slot on Redis back; one Redis cannot free now ends with its lease. */
async function forget(redis: Redis, name: string, token: string): Promise<void> {
  await redis.zrem(name, token).catch(() => undefined);
}
