// The one bounded cache of the code base: a Map that keeps at most `maxEntries` entries and, past
// that, drops the least recently used. A Map iterates in insertion order, so "used" means moved to
// the end (deleted and set again): `set` always does so, and `get` does unless told a read is no use
// (a lookup that only checks). A small class rather than the lru-cache package (not a dependency of
// ours, only of a test tool's): these caches need nothing else, and the TTLs stay their owners'.
//
// With `weigh`, the bound is on the entries' total weight instead of their number (the delivered
// cache bounds deliveries held, not accounts). An entry whose value changes in place is weighed
// again when it is set again; one heavier than the whole bound is not kept at all.

export class Lru<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly weights = new Map<K, number>();
  private held = 0;

  // A method, so that an Lru of a narrower value type is still one of a wider type (as it was
  // before weights: the caches hand their Lru around by a common type).
  private readonly weighing: { weigh(value: V): number };

  constructor(
    readonly maxEntries: number,
    weigh: (value: V) => number = () => 1,
  ) {
    if (!(maxEntries >= 1))
      throw new RangeError(`maxEntries must be at least 1, got ${maxEntries}`);
    this.weighing = { weigh };
  }

  get size(): number {
    return this.entries.size;
  }

  /** The total weight held (the number of entries without `weigh`). */
  get weight(): number {
    return this.held;
  }

  /** The value of `key`; with `use` (the default) it becomes the most recently used. */
  get(key: K, { use = true }: { use?: boolean } = {}): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && use) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /**
   * Stores `value` as the most recently used; the least recently used go past the bound. A value
   * heavier than the whole bound is not kept (nor is what `key` held before).
   */
  set(key: K, value: V): this {
    this.delete(key);
    const weight = this.weighing.weigh(value);
    if (weight > this.maxEntries) return this;
    this.entries.set(key, value);
    this.weights.set(key, weight);
    this.held += weight;
    for (const oldest of this.entries.keys()) {
      if (this.held <= this.maxEntries) break;
      this.delete(oldest);
    }
    return this;
  }

  /** Whether `key` is held, without making it the most recently used. */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  delete(key: K): boolean {
    this.held -= this.weights.get(key) ?? 0;
    this.weights.delete(key);
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.weights.clear();
    this.held = 0;
  }
}
