import { recordText, storedRecord } from '../domain/record-text';
import type { Opportunity } from '../domain/record';
import { Lru } from '../infra/lru';

/** First pages go by digest while at least this share of their records is held. */
const LIKELY = 0.5;
/** Each page's weight in the running share: about the last 20 pages count. */
const WEIGHT = 0.05;

/**
 * The records of the first pages this process served lately, by id, each with its stored text and
 * digest (domain/record-text.ts). A first page asks the engine for its hits' positions and digests
 * only (doc values, mapping 6), which spares the engine reading and decompressing a stored document
 * per hit and this process parsing 60 KB of escaped text per page; the texts come from here when
 * the digest the engine holds is the digest kept, and from one multi-get for the rest. Pages that
 * follow a cursor read their texts from the engine and keep none: a walk deep into results
 * mostly meets records no page showed lately, and keeping them would only churn the cache (each
 * kept record outlives the young generation, and its eviction is then the old generation's work);
 * a cursor page that clients keep asking for is the result cache's (once asked twice). A text is
 * served only under its own SHA-256 digest, so it is exactly what the index holds: a record
 * changed or reindexed since is a miss, never a stale answer.
 */
export class RecordTexts {
  private readonly held: Lru<string, { json: string; digest: string }>;
  /** The share of first pages' records found here lately (see `likelyHeld`). */
  private heldShare = 1;

  /** `maxChars`: the bound on the texts' total length (about a byte per character for most). */
  constructor(maxChars: number) {
    this.held = new Lru(maxChars, (text) => text.json.length);
  }

  /**
   * The record `id` whose stored digest is `digest`, if its text is kept: a record of its own for
   * each page, so what a page adds to it (its parse for `fields`, an MCP reply's encoded bytes)
   * goes with the page and the bound stays on the texts.
   */
  get(id: string, digest: string): Opportunity | undefined {
    const text = this.held.get(id);
    return text !== undefined && text.digest === digest
      ? storedRecord(id, text.json, text.digest)
      : undefined;
  }

  /** Whether `get` would find the record (without making it the most recently used). */
  has(id: string, digest: string): boolean {
    return this.held.get(id, { use: false })?.digest === digest;
  }

  remember(record: Opportunity): void {
    const { json, digest } = recordText(record);
    this.held.set(record.id, { json, digest });
  }

  /**
   * Whether a first page is likely to find most of its texts here. Asking the engine for digests
   * only pays when it does: a record not held costs a look-up by id in a multi-get, dearer for the
   * engine than reading it in the search's own fetch phase. First pages in freshness order mostly
   * show the newest records, which every other first page shows too; a run of filters whose newest
   * records nobody read lately turns it off until the texts they kept make it pay again.
   */
  likelyHeld(): boolean {
    return this.heldShare >= LIKELY;
  }

  /** How many of a first page's records were held: learnt from every one, whichever way it went. */
  observe(held: number, records: number): void {
    if (records === 0) return;
    this.heldShare += (held / records - this.heldShare) * WEIGHT;
  }

  get size(): number {
    return this.held.size;
  }

  /** The characters of text held. */
  get characters(): number {
    return this.held.weight;
  }
}
