import { RateLimitExceeded, type RateDecision, type RateLimiting } from '../billing/rate-limit';
import type { ParsedRequest } from '../domain/filters';

// contract §19.8: free operations whose cost grows with the data or with the account's deliveries
// (new_count and unseen_only read every id delivered this period and send them to the search
// engine; group_by, histograms and statistics aggregate every match) are held to a few in flight
// per account, so a free key cannot turn them against the service.
//
// The slots are the account's across processes (RateLimiting.expensiveSlot: leases in Redis, the
// process's own count when Redis is absent or failing), so N API processes or instances still
// admit 2 for one account, not 2N.

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
  /** `limit`: EXPENSIVE_IN_FLIGHT_PER_ACCOUNT (contract §19.8: 2 by default). */
  constructor(
    private readonly limit: number,
    private readonly slots: Pick<RateLimiting, 'expensiveSlot'>,
  ) {}

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
    const release = await this.slots.expensiveSlot(accountId, this.limit);
    if (!release) {
      throw new RateLimitExceeded(
        'rate_limit_exceeded',
        `Too many expensive free requests in flight for this account (at most ${this.limit}: new_count, unseen_only, group_by, histograms, statistics); retry after 1 s.`,
        { ...window, resetSeconds: 1 },
      );
    }
    try {
      return await fn();
    } finally {
      await release();
    }
  }
}
