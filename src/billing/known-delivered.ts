import { Lru } from '../infra/lru';

// The page ids this process has seen delivered to an account in a period, by id: what lets the
// meter send a page of repeats (the commonest page of an integrator that repeats its searches) the
// read it always sent (READ_PAGE: the spend and a lock-free read, no write) rather than the
// one-round-trip charge (billing/pg-meter.ts), which would try to insert every id. Exact as far
// as it goes: a delivery is never taken back within its period, so an id seen delivered stays
// delivered, and an id it does not know about is only a reason to ask Postgres. Not the
// delivered-cache.ts set: that one holds record numbers (what the search engine filters by) and
// a page arrives at the meter as ids.

/** Ids held over all accounts: some 150 bytes each, about 8 MB at most. */
export const MAX_KNOWN_IDS = 50_000;

export class KnownDelivered {
  /** `account|id` → the start of the period it was delivered in (ms). */
  private readonly ids: Lru<string, number>;

  constructor(maxIds = MAX_KNOWN_IDS) {
    this.ids = new Lru(maxIds);
  }

  /** Ids delivered (committed) to the account in the period starting at `periodStart`. */
  add(accountId: string, periodStart: Date, ids: Iterable<string>): void {
    const start = periodStart.getTime();
    for (const id of ids) this.ids.set(`${accountId}|${id}`, start);
  }

  /** Whether every id is known delivered to the account in the period starting at `periodStart`. */
  all(accountId: string, periodStart: Date, ids: readonly string[]): boolean {
    const start = periodStart.getTime();
    return ids.every((id) => this.ids.get(`${accountId}|${id}`) === start);
  }
}
