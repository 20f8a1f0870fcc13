// The ids delivered to an account in a period, kept between requests (decisions 11: new_count and
// unseen_only read them on every call; at 200,000 deliveries reading them all took Postgres about
// 1.5 s). Exact by construction, never by expiry:
// - a period's deliveries are only ever added (metering_deliveries is append-only; a new period
//   is a new key), so a set read earlier is a subset of the truth;
// - metering_usage.used counts the period's deliveries in the same transaction that writes them,
//   so a subset whose size equals `used` (read in the same snapshot) is the whole set.
// A request reads `used` and the deliveries since a little before the newest it holds; if the
// union still falls short of `used` (a long transaction committed older rows), it reads them all.

/** How far before the newest held delivery a refresh looks (delivered_at is a transaction's start). */
export const REFRESH_OVERLAP_MS = 60_000;

interface Entry {
  /** Block-sorted (SORTED_BLOCK), not in delivery order. */
  ids: string[];
  held: Set<string>;
  newest: Date | null;
}

/**
 * The held ids are kept sorted within each block of SORTED_BLOCK (the search engine's terms
 * clause size, search/exclusions.ts), so the clauses built from them need no sorting per request:
 * only the blocks that received ids are sorted again.
 */
export const SORTED_BLOCK = 65_536;

function sortLastBlocks(ids: string[], from: number): void {
  for (
    let start = Math.floor(from / SORTED_BLOCK) * SORTED_BLOCK;
    start < ids.length;
    start += SORTED_BLOCK
  ) {
    const block = ids.slice(start, start + SORTED_BLOCK).sort();
    for (let i = 0; i < block.length; i++) ids[start + i] = block[i] as string;
  }
}

/** Held ids over all accounts, and for any one account (decisions 12). */
export const MAX_HELD_IDS = 1_000_000;
export const MAX_HELD_IDS_PER_ACCOUNT = 250_000;

export class DeliveredCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  /**
   * At most `maxIds` ids over all accounts (the least recently used accounts go first), and at
   * most `maxPerAccount` for any one account (decisions 12): a larger set is used by the request
   * that read it and not kept, so its account reads its deliveries from the store on each call
   * (at most 2 such calls in flight per account: service/expensive-gate.ts).
   */
  constructor(
    private readonly maxIds = MAX_HELD_IDS,
    private readonly maxPerAccount = Math.min(maxIds, MAX_HELD_IDS_PER_ACCOUNT),
  ) {}

  /** Ids held over all accounts (tests, metrics). */
  get size(): number {
    return this.total;
  }

  get(account: string, period: Date): Entry | undefined {
    const key = `${account}|${period.toISOString()}`;
    const entry = this.entries.get(key);
    if (entry) {
      // Map order is the LRU order.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  /** Adds `ids` (delivery order) to the held set; returns the entry. */
  extend(
    account: string,
    period: Date,
    ids: readonly string[],
    newest: Date | null,
    replace = false,
  ): Entry {
    const key = `${account}|${period.toISOString()}`;
    let entry = this.entries.get(key);
    if (!entry || replace) {
      if (entry) this.total -= entry.ids.length;
      entry = { ids: [], held: new Set(), newest: null };
    }
    const before = entry.ids.length;
    for (const id of ids) {
      if (entry.held.has(id)) continue;
      entry.held.add(id);
      entry.ids.push(id);
      this.total++;
    }
    if (entry.ids.length > before) sortLastBlocks(entry.ids, before);
    if (newest && (!entry.newest || newest > entry.newest)) entry.newest = newest;
    this.entries.delete(key);
    if (entry.ids.length > this.maxPerAccount) {
      // Too large to keep: the caller uses it once. (The key itself was never exempt from the
      // total's eviction either: one account alone could hold past the bound.)
      this.total -= entry.ids.length;
      return entry;
    }
    this.entries.set(key, entry);
    for (const [k, e] of this.entries) {
      if (this.total <= this.maxIds || k === key) break;
      this.entries.delete(k);
      this.total -= e.ids.length;
    }
    return entry;
  }
}
