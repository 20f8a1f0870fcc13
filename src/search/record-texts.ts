import { recordText } from '../domain/record-text';
import type { Opportunity } from '../domain/record';
import { Lru } from '../infra/lru';

/**
 * The records this process served lately, by id, each with its stored text and digest
 * (domain/record-text.ts). A list page asks the engine for its hits' positions and digests only
 * (doc values, mapping 6), which spares the engine reading and decompressing a stored document per
 * hit and this process parsing 60 KB of escaped text per page; the texts come from here when the
 * digest the engine holds is the digest kept, and from one multi-get for the rest. A text is
 * served only under its own SHA-256 digest, so it is exactly what the index holds: a record
 * changed or reindexed since is a miss, never a stale answer.
 */
/** A first page of results, or one that follows a cursor. */
export type PageKind = 'first' | 'next';

/** Pages go by digest while at least this share of their records is held. */
const LIKELY = 0.5;
/** Each page's weight in the running share: about the last 20 pages count. */
const WEIGHT = 0.05;

export class RecordTexts {
  private readonly held: Lru<string, Opportunity>;
  /** The share of each kind of page's records found here lately (see `likelyHeld`). */
  private readonly heldShare: Record<PageKind, number> = { first: 1, next: 1 };

  /** `maxChars`: the bound on the texts' total length (about a byte per character for most). */
  constructor(maxChars: number) {
    this.held = new Lru(maxChars, (record) => recordText(record).json.length);
  }

  /** The record `id` whose stored digest is `digest`, if kept. */
  get(id: string, digest: string): Opportunity | undefined {
    const record = this.held.get(id);
    return record !== undefined && recordText(record).digest === digest ? record : undefined;
  }

  /** Whether `get` would find the record (without making it the most recently used). */
  has(id: string, digest: string): boolean {
    const record = this.held.get(id, { use: false });
    return record !== undefined && recordText(record).digest === digest;
  }

  remember(record: Opportunity): void {
    this.held.set(record.id, record);
  }

  /**
   * Whether a page of this kind is likely to find most of its texts here. Asking the engine for
   * digests only pays when it does: a record not held costs a look-up by id in a multi-get,
   * dearer for the engine than reading it in the search's own fetch phase. Pages that follow a
   * cursor deep into results nobody read lately miss, first pages of the newest records hit.
   */
  likelyHeld(kind: PageKind): boolean {
    return this.heldShare[kind] >= LIKELY;
  }

  /** How many of a page's records were held: learnt from every page, whichever way it went. */
  observe(kind: PageKind, held: number, records: number): void {
    if (records === 0) return;
    this.heldShare[kind] += (held / records - this.heldShare[kind]) * WEIGHT;
  }

  get size(): number {
    return this.held.size;
  }

  /** The characters of text held. */
  get characters(): number {
    return this.held.weight;
  }
}
