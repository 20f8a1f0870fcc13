import { Lru } from '../infra/lru';
import { RoaringSet } from '../infra/roaring';

// The records delivered to an account in a period, kept between requests (contract §10.3, §11.1:
// new_count and unseen_only read them on every call; at 200,000 deliveries reading them all takes
// Postgres hundreds of milliseconds). Held as record numbers in a roaring bitmap: a few bytes per delivery at most, and the bitmap the search engine's filter takes is
// serialized from it directly. Exact by construction, never by expiry:
// - a period's deliveries are only ever added (metering_deliveries is append-only; a new period
//   is a new key), so a set read earlier is a subset of the truth;
// - metering_usage.used counts the period's deliveries in the same transaction that writes them,
//   so a subset whose size equals `used` (read in the same snapshot) is the whole set.
// A request reads `used` and the deliveries after the newest it holds; if the union falls short
// of `used` (a transaction that started earlier committed later), the deliveries since a little
// before the newest; if still short (a long transaction, a ledger written by hand), all of them.

/** How far before the newest held delivery a second refresh looks (delivered_at is a transaction's start). */
export const REFRESH_OVERLAP_MS = 60_000;

export interface Entry {
  /** The delivered records' numbers (opportunities.record_num). */
  nums: RoaringSet;
  /** `nums` as it was when last settled, serialized (numbersOf); null until first asked. */
  settled: string | null;
  /** The numbers added to `nums` since it was settled, in the order they came. */
  recent: number[];
  /** Delivered ids with no stored record (no number): counted, never in any index. */
  unmatched: Set<string>;
  /** The newest delivered_at held, to the microsecond: ISO 8601 UTC, so ordered as text. */
  newest: string | null;
}

/** Deliveries an entry accounts for: what is compared with metering_usage.used. */
export const entrySize = (entry: Entry): number => entry.nums.size + entry.unmatched.size;

/**
 * Past this many numbers delivered since the bitmap was settled, it is settled again. Each settling
 * costs the engine a filter built anew (17 ms at 200,000 deliveries) on the requests that first
 * send the new bitmap; until then each request carries the recent numbers as plain values, a few
 * KB, which the engine looks up cheaply (docs/benchmarks.md, A bitmap that stays the same).
 */
export const MAX_RECENT_NUMBERS = 1024;

/**
 * The entry's numbers as the engine's exclusion takes them (DeliveredRecords): a bitmap that stays
 * the same text while few were added since it was made, and those added since. Copies: the entry
 * grows with later deliveries while the request that asked runs.
 */
export function numbersOf(entry: Entry): { bitmap: string; recent: number[] } {
  if (entry.settled === null || entry.recent.length > MAX_RECENT_NUMBERS) {
    entry.settled = entry.nums.toBase64();
    entry.recent = [];
  }
  return { bitmap: entry.settled, recent: entry.recent.slice() };
}

/**
 * Held deliveries over all accounts, and for any one account. A held delivery costs at most 4
 * bytes (an array container's slot), and 1 bit of its 65,536-record range once that range holds
 * more than 4,096: 10,000,000 take at most 40 MB, about half of what the 1,000,000 uuid strings
 * held before took (a string and its Set entry, some 70 bytes each).
 */
export const MAX_HELD_IDS = 10_000_000;
export const MAX_HELD_IDS_PER_ACCOUNT = 2_000_000;

export class DeliveredCache {
  private readonly entries: Lru<string, Entry>;

  /**
   * At most `maxIds` deliveries over all accounts (the least recently used accounts go first),
   * and at most `maxPerAccount` for any one account: a larger set is used by the request that
   * read it and not kept, so its account reads its deliveries from the store on each call (at
   * most 2 such calls in flight per account: service/expensive-gate.ts).
   */
  constructor(
    maxIds = MAX_HELD_IDS,
    private readonly maxPerAccount = Math.min(maxIds, MAX_HELD_IDS_PER_ACCOUNT),
  ) {
    this.entries = new Lru(maxIds, entrySize);
  }

  /** Deliveries held over all accounts (tests, metrics). */
  get size(): number {
    return this.entries.weight;
  }

  get(account: string, period: Date): Entry | undefined {
    return this.entries.get(keyOf(account, period));
  }

  /** Adds deliveries (record numbers, and ids without a record) to the held set; returns it. */
  extend(
    account: string,
    period: Date,
    read: { nums: readonly number[]; unmatched: readonly string[]; newest: string | null },
    replace = false,
  ): Entry {
    const key = keyOf(account, period);
    let entry = replace ? undefined : this.entries.get(key, { use: false });
    entry ??= {
      nums: new RoaringSet(),
      settled: null,
      recent: [],
      unmatched: new Set(),
      newest: null,
    };
    for (const n of read.nums)
      if (entry.nums.add(n) && entry.settled !== null) entry.recent.push(n);
    for (const id of read.unmatched) entry.unmatched.add(id);
    if (read.newest && (!entry.newest || read.newest > entry.newest)) entry.newest = read.newest;
    // Too large to keep: the caller uses it once. (The Lru weighs it again as it is set.)
    if (entrySize(entry) > this.maxPerAccount) this.entries.delete(key);
    else this.entries.set(key, entry);
    return entry;
  }
}

const keyOf = (account: string, period: Date) => `${account}|${period.toISOString()}`;
