import type { ResponseHeaderValues } from '../domain/response-headers';
import type { Redis } from 'ioredis';
import { ApiError, type ErrorCode } from '../domain/errors';
import { InFlightSlots, type ReleaseSlot } from '../infra/in-flight-slots';
import { Limiter, type LimitDecision } from '../infra/limiter';
import type { BillingSubject } from './metering';

export interface RateDecision {
  /** Effective requests per window: the stricter of account and key (contract §15.4). */
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets, at least 1 (contract §19.2). */
  resetSeconds: number;
}

/** What a rate check needs: who is calling and their limits (plans.accountRps, key rps). */
export interface RateSubject extends BillingSubject {
  accountRps: number;
  /** The key's own limit; null when the key has none (contract §15.4). */
  keyRps: number | null;
}

/**
 * A 429 that still carries the window it hit, so that the response can show X-RateLimit-* as well
 * as Retry-After (contract §19.2). It is an ApiError like any other.
 */
export class RateLimitExceeded extends ApiError {
  constructor(
    code: Extract<ErrorCode, 'rate_limit_exceeded' | 'preview_rate_limit_exceeded'>,
    message: string,
    readonly decision: RateDecision,
  ) {
    super(code, message, undefined, decision.resetSeconds);
    this.name = 'RateLimitExceeded';
    // contract §17.2: a refused call spends nothing, its request id included.
    this.keepsRequestId = true;
  }
}

/**
 * The rate limits the read service and the preview route ask (the capability, not the
 * class). RateLimits implements it over Redis, or over process memory when it is given no Redis
 * (the fast suite's limiter, and the fallback when Redis fails).
 */
export interface RateLimiting {
  /** Counts a read against its account and key; throws 429 rate_limit_exceeded. */
  check(subject: RateSubject): Promise<RateDecision>;
  /** The window a request would be held to, without counting it. */
  peek(subject: RateSubject): Promise<RateDecision>;
  /** Counts an MCP protocol message; throws 429 rate_limit_exceeded past its looser limit. */
  protocolCheck(subject: RateSubject): Promise<RateDecision>;
  /** Counts an anonymous preview per client address; throws 429 preview_rate_limit_exceeded. */
  previewCheck(clientIp: string, perMinute: number): Promise<RateDecision>;
  /**
   * One of the account's `limit` slots for a free but expensive read (contract §19.8), across
   * processes; null when all are held.
   */
  expensiveSlot(accountId: string, limit: number): Promise<ReleaseSlot | null>;
}

/**
 * A slot held by a process that died mid-call frees after this. Every call it guards ends well
 * before: each upstream call has its deadline (OPENSEARCH_TIMEOUT_MS, POSTGRES_TIMEOUT_MS).
 */
export const EXPENSIVE_SLOT_LEASE_MS = 60_000;

/**
 * Request rates (contract §9.6, §15.1, §19.1, §19.2): per account and per key in one-second
 * windows, and per client address for the anonymous preview in one-minute windows. Every
 * authenticated request counts, whether or not it consumes allowance. Counters live in Redis when
 * configured; the Limiter falls back to process memory when Redis is absent or fails, so an outage
 * of Redis loosens the limits to per-process ones but never stops the service.
 */
export class RateLimits implements RateLimiting {
  private readonly accounts: Limiter;
  private readonly keys: Limiter;
  private readonly preview: Limiter;
  private readonly protocol: Limiter;
  private readonly expensive: InFlightSlots;

  /** `namespace` keeps deployments (and test databases) that share one Redis apart. */
  constructor(redis: Redis | null, namespace = 'default') {
    this.accounts = new Limiter(redis, {
      keyPrefix: `rl:${namespace}:account`,
      durationSeconds: 1,
    });
    this.keys = new Limiter(redis, { keyPrefix: `rl:${namespace}:key`, durationSeconds: 1 });
    this.protocol = new Limiter(redis, {
      keyPrefix: `rl:${namespace}:protocol`,
      durationSeconds: 1,
    });
    this.preview = new Limiter(redis, {
      keyPrefix: `rl:${namespace}:preview`,
      durationSeconds: 60,
    });
    this.expensive = new InFlightSlots(redis, {
      keyPrefix: `inflight:${namespace}:expensive`,
      leaseMs: EXPENSIVE_SLOT_LEASE_MS,
    });
  }

  expensiveSlot(accountId: string, limit: number): Promise<ReleaseSlot | null> {
    return this.expensive.acquire(accountId, limit);
  }

  /** Counts the request against its account and its key; throws 429 rate_limit_exceeded. */
  async check(subject: RateSubject): Promise<RateDecision> {
    // A key limit at or above the account's can never bind first: skip its counter (one round
    // trip fewer) and show the account's window. A key limit below it is counted first, and a
    // request it refuses is not counted against the account: a key held to its own limit and
    // retrying used up the window of the account's other keys.
    const keyBinds = subject.keyRps !== null && subject.keyRps < subject.accountRps;
    const key =
      keyBinds && subject.keyRps !== null
        ? await this.keys.consume(subject.keyId, subject.keyRps)
        : null;
    const account =
      key && !key.allowed
        ? null
        : await this.accounts.consume(subject.accountId, subject.accountRps);
    // The other way round: a request the account refuses gives the key its point back. The two
    // windows start at different moments, so a key whose requests the account refused was held to
    // its own limit in the account's next window, never having been served.
    if (key?.allowed && account && !account.allowed && subject.keyRps !== null) {
      await this.keys.refund(subject.keyId, subject.keyRps, key.windowEndsAt);
    }
    const decisions = [account, key].filter((d): d is LimitDecision => d !== null);
    // Only one window can refuse (the account is not asked once the key has): the message names
    // the limit that did, the headers the effective one (contract §18.2).
    const refused = decisions.find((d) => !d.allowed);
    const shown = stricter(decisions);
    if (refused) {
      const wait = refused.resetSeconds;
      throw new RateLimitExceeded(
        'rate_limit_exceeded',
        `Rate limit of ${refused.limit} requests per second exceeded; retry after ${wait} s.`,
        { ...shown, remaining: 0, resetSeconds: wait },
      );
    }
    return shown;
  }

  /**
   * The window a request would be held to, without counting it: for authenticated protocol
   * messages that are not reads (MCP initialize, tools/list), which still show X-RateLimit-*.
   */
  async peek(subject: RateSubject): Promise<RateDecision> {
    const keyBinds = subject.keyRps !== null && subject.keyRps < subject.accountRps;
    const decisions = await Promise.all([
      this.accounts.peek(subject.accountId, subject.accountRps),
      ...(keyBinds && subject.keyRps !== null
        ? [this.keys.peek(subject.keyId, subject.keyRps)]
        : []),
    ]);
    return stricter(decisions);
  }

  /**
   * MCP protocol messages (contract §21.10): a client's handshake must not spend its reads, but a
   * flood of them is still refused. Per account, PROTOCOL_RATE_FACTOR times its read rate (at least
   * PROTOCOL_MIN_PER_SECOND) in one-second windows; 429 rate_limit_exceeded past it.
   */
  async protocolCheck(subject: RateSubject): Promise<RateDecision> {
    const limit = protocolLimit(subject.accountRps);
    const d = await this.protocol.consume(subject.accountId, limit);
    if (!d.allowed) {
      throw new RateLimitExceeded(
        'rate_limit_exceeded',
        `Too many protocol messages (${limit} a second); retry after ${d.resetSeconds} s.`,
        toRate(d),
      );
    }
    return toRate(d);
  }

  /** Anonymous preview (contract §9.6): `perMinute` requests a minute per client address. */
  async previewCheck(clientIp: string, perMinute: number): Promise<RateDecision> {
    const d = await this.preview.consume(clientIp, perMinute);
    if (!d.allowed) {
      throw new RateLimitExceeded(
        'preview_rate_limit_exceeded',
        `The preview allows ${perMinute} requests a minute; retry after ${d.resetSeconds} s.`,
        toRate(d),
      );
    }
    return toRate(d);
  }
}

export const PROTOCOL_RATE_FACTOR = 5;
export const PROTOCOL_MIN_PER_SECOND = 20;

export function protocolLimit(accountRps: number): number {
  return Math.max(PROTOCOL_MIN_PER_SECOND, accountRps * PROTOCOL_RATE_FACTOR);
}

/** The window a client should go by: the lowest limit and remaining, the latest reset. */
function stricter(decisions: LimitDecision[]): RateDecision {
  return {
    limit: Math.min(...decisions.map((d) => d.limit)),
    remaining: Math.min(...decisions.map((d) => d.remaining)),
    resetSeconds: Math.max(...decisions.map((d) => d.resetSeconds)),
  };
}

function toRate(d: LimitDecision): RateDecision {
  return { limit: d.limit, remaining: d.remaining, resetSeconds: d.resetSeconds };
}

/** contract §18.2: X-RateLimit-* on every authenticated response, 429s included. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(Math.max(0, decision.remaining)),
    'X-RateLimit-Reset': String(Math.max(1, Math.ceil(decision.resetSeconds))),
  } satisfies ResponseHeaderValues;
}
