// The page ids this process has seen delivered to an account in its current period, by id: what
// lets the meter send a page of repeats (the commonest page of an integrator that repeats its
// searches) the read it always sent (READ_PAGE: the spend and a lock-free read, no write) rather
// than the one-round-trip charge (billing/pg-meter.ts), which would try to insert every id. Exact
// as far as it goes: a delivery is never taken back within its period, so an id seen delivered
// stays delivered, and an id it does not know about is only a reason to ask Postgres. Not the
// delivered-cache.ts set: that one holds record numbers (what the search engine filters by) and a
// page arrives at the meter as ids.
//
// A Set of ids per account, not one map keyed by account and id: a page's lookups are then Set
// probes with the page's own id strings (whose hashes V8 keeps), not 25 new key strings to hash.

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
  /** Per account; Map order is the least recently used order. */
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    private readonly maxIds = MAX_KNOWN_IDS,
    private readonly maxPerAccount = Math.min(maxIds, MAX_KNOWN_IDS_PER_ACCOUNT),
  ) {}

  /** Ids held over all accounts (tests). */
  get size(): number {
    return this.total;
  }

  /** Ids delivered (committed) to the account in the period starting at `periodStart`. */
  add(accountId: string, periodStart: Date, ids: Iterable<string>): void {
    const start = periodStart.getTime();
    let entry = this.touch(accountId);
    if (!entry || entry.periodStart !== start) {
      if (entry) this.total -= entry.ids.size;
      entry = { periodStart: start, ids: new Set() };
      this.entries.set(accountId, entry);
    }
    for (const id of ids) {
      if (entry.ids.has(id)) continue;
      if (entry.ids.size >= this.maxPerAccount) {
        this.total -= entry.ids.size;
        entry.ids.clear();
      }
      entry.ids.add(id);
      this.total += 1;
    }
    // The least recently used accounts go first; never the one just added to.
    for (const [account, other] of this.entries) {
      if (this.total <= this.maxIds || account === accountId) break;
      this.entries.delete(account);
      this.total -= other.ids.size;
    }
  }

  /** Whether every id is known delivered to the account in the period starting at `periodStart`. */
  all(accountId: string, periodStart: Date, ids: readonly string[]): boolean {
    const entry = this.touch(accountId);
    if (!entry || entry.periodStart !== periodStart.getTime()) return false;
    return ids.every((id) => entry.ids.has(id));
  }

  /** The account's entry, made the most recently used. */
  private touch(accountId: string): Entry | undefined {
    const entry = this.entries.get(accountId);
    if (entry) {
      this.entries.delete(accountId);
      this.entries.set(accountId, entry);
    }
    return entry;
  }
}
