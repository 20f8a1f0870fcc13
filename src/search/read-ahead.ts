import type { IndexGeneration } from './generation';
import { Lru } from '../infra/lru';
import { metrics } from '../infra/metrics';

// Read-ahead for cursor walks. A client that follows a cursor almost always asks for the next page
// too (a sync job walks to the end), and part of the engine's cost of a keyset page is finding
// where the page starts, whatever its size: on the bench's index, 25 records with their texts cost
// it 2.25 ms of CPU in searches of 26 hits and 1.75 ms in searches of 101 (digests alone: 0.88 and
// 0.41 ms; docs/benchmarks.md, Read-ahead). So a page after a cursor asks for the pages after it as
// well, and keeps them here under the keys their own requests will have, until one of them asks.
//
// What is kept follows the result cache's rules (result-cache.ts): a page is kept under the index
// generation read before the search, and every change of the index clears them all, so a page read
// ahead is never served once a change is visible to anyone. Unlike the result cache, each page is
// served once and then dropped: a walk asks for each page once, and its pages must not push out
// what others repeat.

export interface ReadAheadOptions {
  /** Most pages kept (the least recently read ahead go first). */
  maxPages: number;
  /** A safety bound on a page's age, for a change whose notification was lost. */
  maxAgeMs: number;
}

/** A page read ahead, with the key its own request will look it up by. */
export interface PageAhead<T> {
  key: string;
  page: T;
}

export class ReadAhead<T> {
  private readonly pages: Lru<string, { page: T; at: number }>;
  private generation: string | null = null;

  constructor(
    private readonly source: Pick<IndexGeneration, 'current'>,
    private readonly options: ReadAheadOptions,
  ) {
    this.pages = new Lru(options.maxPages);
  }

  /** How many pages are held (for tests and metrics). */
  get size(): number {
    return this.pages.size;
  }

  /**
   * The page of `key`: one read ahead by an earlier search, taken out; otherwise `read` runs the
   * search, whose first page is this one and whose others are kept for their own requests.
   */
  async get(key: string, read: () => Promise<PageAhead<T>[]>): Promise<T> {
    const generation = this.source.current();
    if (generation !== this.generation) {
      this.pages.clear();
      this.generation = generation;
    }
    const held = this.pages.get(key);
    if (held) {
      this.pages.delete(key);
      if (Date.now() - held.at < this.options.maxAgeMs) {
        metrics.pagesReadAhead('served');
        return held.page;
      }
    }
    const [first, ...following] = await read();
    if (!first) throw new Error('read-ahead: a search gave no page');
    // Kept only under a generation known before the search and unchanged after it: a change made
    // while the search ran could be missing from its hits.
    if (generation !== null && this.generation === generation) {
      if (this.source.current() === generation) {
        const at = Date.now();
        for (const { key: next, page } of following) this.pages.set(next, { page, at });
        metrics.pagesReadAhead('kept', following.length);
      }
    }
    return first.page;
  }
}
