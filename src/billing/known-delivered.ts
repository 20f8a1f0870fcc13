import { Lru } from '../infra/lru';

// The page ids this process has seen delivered to an account in its current period, by id: what
// lets the meter send a page of repeats (the commonest page of an integrator that repeats its
// searches) the read it always sent (READ_PAGE: the spend and a lock-free read, no write) rather
// than the one-round-trip charge (billing/pg-meter.ts), which would try to insert every id. Exact
// as far as it goes: a delivery is never taken back within its period, so an id seen delivered
// stays delivered, and an id it does not know about is only a reason to ask Postgres. Not the
// delivered-cache.ts set: that one holds record numbers (what the search engine filters by) and a
// page arrives at the meter as ids.
//
// A Set of ids per account (in the one bounded cache, infra/lru.ts), not one map keyed by
// account and id: a page's lookups are then Set probes with the page's own id strings (whose
// hashes V8 keeps), not 25 new key strings to hash.

/** Ids held over all accounts: some 100 bytes each, about 5 MB at most. */
export const MAX_KNOWN_IDS = 50_000;
/** Ids held for one account: past it the account's set starts again (it is only a shortcut). */
export const MAX_KNOWN_IDS_PER_ACCOUNT = 10_000;

interface Entry {
  /** The period the ids were delivered in (its start, ms): another period starts empty. */
  periodStart: number;
  ids: Set<string>;
}

export class KnownDelivered {
  /** Per account, weighed by the ids it holds (infra/lru.ts): the least recently used go first. */
  private readonly entries: Lru<string, Entry>;

  constructor(
    maxIds = MAX_KNOWN_IDS,
    private readonly maxPerAccount = Math.min(maxIds, MAX_KNOWN_IDS_PER_ACCOUNT),
  ) {
    this.entries = new Lru(maxIds, (entry) => entry.ids.size);
  }

  /** Ids held over all accounts (tests). */
  get size(): number {
    return this.entries.weight;
  }

  /** Ids delivered (committed) to the account in the period starting at `periodStart`. */
  add(accountId: string, periodStart: Date, ids: Iterable<string>): void {
    const start = periodStart.getTime();
    let entry = this.entries.get(accountId, { use: false });
    if (entry?.periodStart !== start) entry = { periodStart: start, ids: new Set() };
    for (const id of ids) {
      // Past the account's bound its set starts again (it is only a shortcut).
      if (!entry.ids.has(id) && entry.ids.size >= this.maxPerAccount) entry.ids.clear();
      entry.ids.add(id);
    }
    // Set again: weighed anew, the most recently used, never the one evicted.
    this.entries.set(accountId, entry);
  }

  /** Whether every id is known delivered to the account in the period starting at `periodStart`. */
  all(accountId: string, periodStart: Date, ids: readonly string[]): boolean {
    const entry = this.entries.get(accountId);
    if (!entry || entry.periodStart !== periodStart.getTime()) return false;
    return ids.every((id) => entry.ids.has(id));
  }
}
