import type { IncomingHttpHeaders } from 'node:http';
import { failClosed } from '../billing/pg-errors';
import { ApiError } from '../domain/errors';
import { addressGroup } from '../infra/client-address';
import { Limiter } from '../infra/limiter';
import { Lru } from '../infra/lru';
import { TokenBucket } from '../infra/token-bucket';
import { accountLimits } from '../billing/account-limits';
import { rateLimitHeaders } from '../billing/rate-limit';
import type { Account, AccountLimits } from '../domain/account';
import { KEY_SHAPE } from '../domain/key-shape';
import {
  hashApiKey,
  type ApiKeyRecord,
  type KeyLookup,
  type KeyWithAccount,
} from '../store/api-key-repo';
import type { Redis } from 'ioredis';
import type { Settings } from './context';

// Authentication (contract §14, §19.5), free of express so that REST and /mcp share it.

/**
 * The failed-authentication counter per address group (a minute's window): on Redis when there is
 * one, else in process. Namespaced by database so that deployments (and test files) sharing one
 * Redis never throttle each other's clients.
 */
export function authFailureLimiter(redis: Redis | null, databaseName: string): Limiter {
  return new Limiter(redis, { keyPrefix: `authfail:${databaseName}`, durationSeconds: 60 });
}

export interface AuthContext {
  account: Account;
  key: ApiKeyRecord;
  /** The account's limits, computed once per request (billing/account-limits.ts). */
  limits: AccountLimits;
}

export interface AuthOptions {
  /** The /mcp endpoint also accepts `Authorization: Bearer <key>` (contract §14.1, §21.2). */
  allowBearer: boolean;
  /**
   * Whether the URL carried something that looks like a key; it is never read, only mentioned in
   * the 401 of a request without one. Asked only then: every query value would be scanned on
   * every authenticated request otherwise.
   */
  keyInQuery?: () => boolean;
  /**
   * Every Authorization header as sent, where the request had more than one: Node keeps only the
   * first in `headers`, and two Bearer keys of ours are as ambiguous as X-API-Key beside another.
   */
  authorizations?: readonly string[];
}

/**
 * Revocation and account status changes take effect within CACHE_TTL_MS: an entry expires one TTL
 * after its lookup *started*, so a lookup that could have missed a committed revocation is never
 * served more than 1 s after that commit, in any process. The cache holds the promise, so
 * concurrent requests with one key share a single query; it is keyed by the key's hash (the
 * secret is never kept) and bounded, the least recently used going first (infra/lru.ts).
 */
export const CACHE_TTL_MS = 1000;
const CACHE_MAX_ENTRIES = 10_000;
/** api_keys.last_used_at is written at most once a minute per key. */
const TOUCH_INTERVAL_MS = 60_000;
/**
 * contract §14.5: lookups of keys the key index does not know (store/key-index.ts), per process. A
 * key created a moment ago elsewhere is still found at once while the budget lasts; under a flood
 * of unknown keys the store sees at most this many lookups a second, and a new key is known by
 * notification within milliseconds anyway.
 */
const UNKNOWN_KEY_LOOKUPS_PER_SECOND = 2;
const UNKNOWN_KEY_LOOKUP_BURST = 5;
/** How long an unknown key past the budget waits for a notification that may carry it. */
const NOTIFICATION_WAIT_MS = 250;

const STATUS_ERRORS: Record<Exclude<Account['status'], 'active'>, () => ApiError> = {
  disabled: () => new ApiError('api_access_disabled', 'API access is disabled for this account.'),
  suspended: () =>
    new ApiError('api_access_suspended', 'API access is suspended for this account.'),
  pending: () =>
    new ApiError('plan_access_pending', 'The entitlement of this account is not active yet.'),
  expired: () =>
    new ApiError('plan_access_expired', 'The entitlement of this account has expired.'),
};

type Resolution = { ok: true; auth: AuthContext } | { ok: false; error: ApiError };

export class AuthService {
  private readonly cache = new Lru<
    string,
    { expires: number; value: Promise<KeyWithAccount | null> }
  >(CACHE_MAX_ENTRIES);
  private readonly touched = new Lru<string, number>(CACHE_MAX_ENTRIES);
  private readonly failures: Limiter;
  private readonly unknownLookups: TokenBucket;

  constructor(
    private readonly deps: Pick<Settings, 'env' | 'logger'>,
    private readonly keys: KeyLookup,
    failures: Limiter,
    /** The clock of the key cache and the last_used_at throttle; tests inject one. */
    private readonly now: () => number = Date.now,
  ) {
    this.failures = failures;
    this.unknownLookups = new TokenBucket(UNKNOWN_KEY_LOOKUPS_PER_SECOND, UNKNOWN_KEY_LOOKUP_BURST);
  }

  /**
   * Resolves the caller of a request or throws the ApiError to send. Failed authentications (401s)
   * are counted per address group (IPv6 by /64); past AUTH_FAILURES_PER_MINUTE in a minute the
   * group's failures get 429 instead of 401 (contract §19.5). A valid key is never refused for its
   * address's failures: the throttle answers only requests whose key is missing or bad. 403s are
   * not counted, because their key is genuine.
   */
  async authenticate(
    headers: IncomingHttpHeaders,
    ip: string | undefined,
    options: AuthOptions,
  ): Promise<AuthContext> {
    const result = await this.resolve(headers, options);
    if (result.ok) {
      this.touch(result.auth.key);
      return result.auth;
    }
    return this.refuse(result.error, ip);
  }

  /**
   * Throws `error`, a refusal of the caller's credentials, after counting it against the address's
   * failures when it is a 401: past the limit, the 429 of the throttle instead. The API key's
   * refusals come here, and those of any other secret a route checks (the /metrics token), so
   * guessing one costs the same as guessing the other.
   */
  async refuse(error: ApiError, ip: string | undefined): Promise<never> {
    if (error.status === 401) {
      const client = addressGroup(ip);
      const limit = this.deps.env.AUTH_FAILURES_PER_MINUTE;
      // Counted and decided in one step (the window's increment answers both): a read of the
      // window, then a count, let every failure of a burst that read it before the count reached
      // the limit have its 401.
      const counted = await this.failures.consume(client, limit).catch((err: unknown) => {
        // Counting is a defence, not a dependency: a 401 stays a 401.
        this.deps.logger.warn('auth failure count failed', { error: String(err) });
        return null;
      });
      if (counted) {
        // contract §18.2.1: no account is known, so the window these headers describe is the
        // address's failed authentications: how many more before the 429, and when it resets.
        const window = rateLimitHeaders(counted);
        if (!counted.allowed) {
          const throttled = new ApiError(
            'rate_limit_exceeded',
            'Too many failed authentications from this address; fix the credentials before retrying.',
            undefined,
            counted.resetSeconds,
          );
          Object.assign(throttled.headers, window);
          throw throttled;
        }
        Object.assign(error.headers, window);
      }
    }
    throw error;
  }

  private async resolve(headers: IncomingHttpHeaders, options: AuthOptions): Promise<Resolution> {
    const key = extractKey(headers, options.allowBearer, options.authorizations);
    if (key === undefined) return { ok: false, error: missingKey(options) };
    if (key === CONFLICTING_KEYS) {
      const error = new ApiError(
        'invalid_api_key',
        'The request carries different API keys; send one key.',
      );
      return { ok: false, error };
    }
    // Nothing we issued has another shape: refuse without touching the database.
    if (!KEY_SHAPE.test(key)) return { ok: false, error: invalidKey() };
    const found = await this.lookup(hashApiKey(key));
    if (!found) return { ok: false, error: invalidKey() };
    if (found.key.revoked_at !== null) {
      return { ok: false, error: new ApiError('revoked_api_key', 'The API key has been revoked.') };
    }
    const auth = { ...found, limits: accountLimits(found.account) };
    const { status } = found.account;
    if (status !== 'active') {
      return { ok: false, error: refusedAfterAuthentication(STATUS_ERRORS[status](), auth) };
    }
    return { ok: true, auth };
  }

  private async lookup(hash: string): Promise<KeyWithAccount | null> {
    const hit = this.cache.get(hash);
    if (hit && hit.expires > this.now()) return hit.value;
    // contract §14.5: a key the index does not know costs the store a query only within the budget.
    const known = await this.keys.mayExist(hash).catch(() => undefined);
    if (known === true || this.unknownLookups.take()) return this.cached(hash);
    // The index is not current: nothing can be said without the store.
    if (known === undefined) {
      throw new ApiError(
        'metering_unavailable',
        'API keys cannot be checked right now; retry in a second.',
        undefined,
        1,
      );
    }
    // The key did not exist a moment ago. It may have been committed an instant before this
    // request, its notification still on the way: wait for that briefly, never for the store.
    const arrived = await this.keys.mayExist(hash, NOTIFICATION_WAIT_MS).catch(() => undefined);
    return arrived === true ? this.cached(hash) : null;
  }

  /** The store's answer for a hash, shared by concurrent requests and kept CACHE_TTL_MS. */
  private cached(hash: string): Promise<KeyWithAccount | null> {
    const now = this.now();
    const hit = this.cache.get(hash);
    if (hit && hit.expires > now) return hit.value;
    this.cache.delete(hash);
    // Accounts live in the metering store: when it is down, nothing can be served or charged.
    const value = failClosed(() => this.keys.findByHash(hash));
    const entry = { expires: now + CACHE_TTL_MS, value };
    this.cache.set(hash, entry);
    // A failed query is not remembered: the next request asks the database again.
    entry.value.catch(() => {
      if (this.cache.get(hash, { use: false }) === entry) this.cache.delete(hash);
    });
    return entry.value;
  }

  /** Off the request path: scheduled, never awaited, and its failure only logged. */
  private touch(key: ApiKeyRecord): void {
    const now = this.now();
    const last = this.touched.get(key.id) ?? key.last_used_at?.getTime() ?? 0;
    if (now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(key.id, now);
    setImmediate(() => {
      this.keys.touch(key.id).catch((err: unknown) => {
        this.deps.logger.warn('api key last_used_at update failed', {
          key_id: key.id,
          error: err instanceof Error ? err.message : String(err),
        });
      });
    });
  }
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw.join(', ') : raw)?.trim();
  return value ? value : undefined;
}

/**
 * An error about an authenticated key that never reaches the service (its account's status, a
 * malformed X-Request-ID): it names the account, for its usage headers, and the key with its
 * rates, so that it is counted against the rate limit like any authenticated request.
 */
export function refusedAfterAuthentication(error: ApiError, auth: AuthContext): ApiError {
  error.authenticated = {
    accountId: auth.account.id,
    keyId: auth.key.id,
    accountRps: auth.limits.rps,
    keyRps: auth.key.rps,
    ownAllowance: auth.key.allowance !== null,
  };
  return error;
}

/** X-API-Key first; `Authorization: Bearer` only where allowed (contract §14.1). */
export function extractKey(
  headers: IncomingHttpHeaders,
  allowBearer: boolean,
  authorizations: readonly string[] = [],
): string | typeof CONFLICTING_KEYS | undefined {
  const apiKey = apiKeyHeader(headers);
  if (apiKey === CONFLICTING_KEYS || !allowBearer) return apiKey;
  const bearerOf = (value: string) => /^Bearer[ \t]+(\S+)$/i.exec(value)?.[1];
  const bearer = bearerOf(headerValue(headers, 'authorization') ?? '');
  // Two different keys of ours: which one the caller meant to pay with is not ours to guess. A
  // Bearer token of another shape beside X-API-Key is someone else's (a gateway's) and is left be.
  const ours = new Set(
    [apiKey, bearer, ...authorizations.map(bearerOf)].filter(
      (key): key is string => key !== undefined && (key === apiKey || KEY_SHAPE.test(key)),
    ),
  );
  if (ours.size > 1) return CONFLICTING_KEYS;
  return apiKey ?? bearer;
}

/**
 * X-API-Key sent more than once arrives joined (`K, K`): the key when every copy is the same one,
 * as two identical Bearer headers are on /mcp (contract §14.1.2); two different ones are as
 * ambiguous as X-API-Key beside another Bearer key. A key never holds a comma.
 */
function apiKeyHeader(headers: IncomingHttpHeaders): string | typeof CONFLICTING_KEYS | undefined {
  const value = headerValue(headers, 'x-api-key');
  if (value === undefined || !value.includes(',')) return value;
  const copies = new Set(
    value
      .split(',')
      .map((copy) => copy.trim())
      .filter(Boolean),
  );
  if (copies.size > 1) return CONFLICTING_KEYS;
  return [...copies][0];
}

/** extractKey: X-API-Key and Authorization: Bearer name different keys of ours. */
export const CONFLICTING_KEYS = Symbol('conflicting keys');

function missingKey(options: AuthOptions): ApiError {
  const where = options.allowBearer
    ? 'the X-API-Key header or Authorization: Bearer'
    : 'the X-API-Key header';
  const why = options.keyInQuery?.() ? ' API keys in the URL are never accepted.' : '';
  return new ApiError('missing_api_key', `An API key is required in ${where}.${why}`);
}

const invalidKey = () => new ApiError('invalid_api_key', 'The API key is not valid.');
