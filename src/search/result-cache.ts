import type { IndexGeneration } from './generation';
import { Lru } from '../infra/lru';

// Search results (counts, pages of hits) cached per process, keyed by the exact search-engine
// request body (built from the normalized filters, so equivalent queries share an entry) and the
// index generation (search/generation.ts). Nothing about the caller or their metering is part of
// an entry: what a response costs is always decided by the ledger (billing/pg-meter.ts).

export interface ResultCacheOptions {
  /** Most entries kept (least recently used go first). */
  maxEntries: number;
  /** A safety bound on an entry's age, for a change whose notification was lost (a crashed sync). */
  maxAgeMs: number;
}

/**
 * How many keys asked once (get with `admit: 'repeated'`) are remembered, per entry the cache
 * holds: a key is admitted when it is asked again before this many others were asked once.
 */
const SEEN_PER_ENTRY = 4;

export class ResultCache<T> {
  private readonly entries: Lru<string, { value: T; at: number }>;
  private generation: string | null = null;

  /** Keys asked once with `admit: 'repeated'` and not stored (keys only: no value is kept). */
  private readonly seenOnce: Lru<string, true>;

  constructor(
    private readonly source: Pick<IndexGeneration, 'current'>,
    private readonly options: ResultCacheOptions,
  ) {
    this.entries = new Lru(options.maxEntries);
    this.seenOnce = new Lru(options.maxEntries * SEEN_PER_ENTRY);
  }

  /**
   * The cached value for `key`, or the value `load` finds, stored under the generation read
   * *before* loading: a change made while loading bumps the generation, so the value cannot be
   * served once the change is visible to anyone.
   */
  async get(
    key: string,
    load: () => Promise<T>,
    { admit = 'first' }: { admit?: 'first' | 'repeated' } = {},
  ): Promise<T> {
    const generation = this.source.current();
    if (generation === null) return load();
    if (generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.options.maxAgeMs) return hit.value;
    const value = await load();
    // 'repeated': a key is stored the second time it is loaded, so that a run of keys asked once
    // each (a client walking its cursor) does not push out what others keep asking for.
    if (admit === 'repeated' && !this.seenOnce.delete(key)) {
      this.seenOnce.set(key, true);
      return value;
    }
    if (this.generation === generation && this.source.current() === generation) {
      this.entries.set(key, { value, at: now });
    }
    return value;
  }
}
