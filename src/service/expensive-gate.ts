import { RateLimitExceeded, type RateDecision } from '../billing/rate-limit';
import type { ParsedRequest } from '../domain/filters';

// contract §19.8: free operations whose cost grows with the data or with the account's deliveries
// (new_count and unseen_only read every id delivered this period and send them to the search
// engine; group_by, histograms and statistics aggregate every match) are held to a few in flight
// per account, so a free key cannot turn them against the service.
//
// The count is per process, deliberately not global through Redis: what a call in flight holds
// (the period's delivered ids in memory, a connection, a search thread) is the process's, and the
// rate across processes is already bounded by the account's request rate, which is global. A
// Redis semaphore would add a round trip to every such call and leases to expire after a crash,
// for a bound the rate limit already gives. N processes thus admit up to 2N for one account.

/** THE predicate: whether a parsed list or count request is free but expensive. One line per kind. */
export function isFreeButExpensive(request: ParsedRequest): boolean {
  const { filter, options } = request;
  return (
    filter.unseen_only === true ||
    options.includeNewCount ||
    (options.groupBy?.length ?? 0) > 0 ||
    // contract §10.7: histograms and statistics aggregate every match
    options.histogram !== undefined ||
    options.stats !== undefined
  );
}

export class ExpensiveGate {
  private readonly inFlight = new Map<string, number>();

  /** `limit`: EXPENSIVE_IN_FLIGHT_PER_ACCOUNT (contract §19.8: 2 by default). */
  constructor(private readonly limit: number) {}

  /**
   * Runs `fn`, holding one of the account's slots when the request is free but expensive; past
   * the limit, 429 rate_limit_exceeded with Retry-After 1, showing the account's rate window
   * (`window`, the request's passed rate check).
   */
  async run<T>(
    accountId: string,
    request: ParsedRequest,
    window: RateDecision,
    fn: () => Promise<T>,
  ): Promise<T> {
    if (!isFreeButExpensive(request)) return fn();
    const held = this.inFlight.get(accountId) ?? 0;
    if (held >= this.limit) {
      throw new RateLimitExceeded(
        'rate_limit_exceeded',
        `Too many expensive free requests in flight for this account (at most ${this.limit}: new_count, unseen_only, group_by, histograms, statistics); retry after 1 s.`,
        { ...window, resetSeconds: 1 },
      );
    }
    this.inFlight.set(accountId, held + 1);
    try {
      return await fn();
    } finally {
      const left = (this.inFlight.get(accountId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(accountId, left);
      else this.inFlight.delete(accountId);
    }
  }

  /** Slots held by the account now (tests). */
  held(accountId: string): number {
    return this.inFlight.get(accountId) ?? 0;
  }
}
