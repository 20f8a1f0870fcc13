// The one bounded cache of the code base: a Map that keeps at most `maxEntries` entries and, past
// that, drops the least recently used. A Map iterates in insertion order, so "used" means moved to
// the end (deleted and set again): `set` always does so, and `get` does unless told a read is no use
// (a lookup that only checks). A small class rather than the lru-cache package (not a dependency of
// ours, only of a test tool's): these caches need nothing else, and the TTLs stay their owners'.

export class Lru<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!(maxEntries >= 1))
      throw new RangeError(`maxEntries must be at least 1, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
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

  /** Stores `value` as the most recently used; the least recently used go past the bound. */
  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
