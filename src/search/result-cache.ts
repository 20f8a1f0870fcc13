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

  /** How many entries are held. */
  get size(): number {
    return this.entries.size;
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
    const generation = this.currentGeneration();
    if (generation === null) return load();
    const now = Date.now();
    const hit = this.fresh(key, now);
    if (hit) return hit.value;
    const value = await load();
    // 'repeated': a key is stored the second time it is loaded, so that a run of keys asked once
    // each (a client walking its cursor) does not push out what others keep asking for.
    if (admit === 'repeated' && !this.seenOnce.delete(key)) {
      this.seenOnce.set(key, true);
      return value;
    }
    this.keep(generation, [{ key, value }], now);
    return value;
  }

  /**
   * Read-ahead (OpenSearchIndex.readAhead): the value kept for `key`, taken out, so that it is served
   * once; otherwise `load`, whose first value is this key's and whose others are kept under their
   * own keys for the requests that will ask for them, by get()'s rule. Says which it was.
   */
  async take(
    key: string,
    load: () => Promise<Array<{ key: string; value: T }>>,
  ): Promise<{ value: T; taken: boolean; kept: number }> {
    const generation = this.currentGeneration();
    const now = Date.now();
    const hit = generation === null ? undefined : this.fresh(key, now);
    this.entries.delete(key);
    if (hit) return { value: hit.value, taken: true, kept: 0 };
    const [first, ...following] = await load();
    if (!first) throw new Error(`result cache: nothing loaded for ${key}`);
    return { value: first.value, taken: false, kept: this.keep(generation, following, now) };
  }

  /** The generation now, the entries of any other dropped; null while it cannot be known. */
  private currentGeneration(): string | null {
    const generation = this.source.current();
    if (generation !== null && generation !== this.generation) {
      this.entries.clear();
      this.generation = generation;
    }
    return generation;
  }

  /** The entry of `key` if it is younger than the age bound at `now`. */
  private fresh(key: string, now: number): { value: T; at: number } | undefined {
    const hit = this.entries.get(key);
    return hit && now - hit.at < this.options.maxAgeMs ? hit : undefined;
  }

  /**
   * Stores values loaded under `generation`, if it is still the current one: a change made while
   * loading could be missing from them. How many were stored.
   */
  private keep(
    generation: string | null,
    values: ReadonlyArray<{ key: string; value: T }>,
    at: number,
  ): number {
    if (generation === null || this.generation !== generation) return 0;
    if (this.source.current() !== generation) return 0;
    for (const { key, value } of values) this.entries.set(key, { value, at });
    return values.length;
  }
}
